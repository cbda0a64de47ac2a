import {
  BarController,
  BarElement,
  CategoryScale,
  Chart,
  type ChartConfiguration,
  Legend,
  LinearScale,
  LineController,
  LineElement,
  PointElement,
  Tooltip,
} from 'chart.js'

// Chart.js with only the parts our charts draw: bars (floating bars too: a value [from, to]), lines
// and their points, category and linear scales, the legend and the tooltip. Registering these and no
// more keeps the rest of the library out of the bundle. This module is loaded by chart.tsx on demand,
// so even a page that imports the wrapper carries none of Chart.js until a chart is on screen.
Chart.register(
  BarController,
  BarElement,
  LineController,
  LineElement,
  PointElement,
  CategoryScale,
  LinearScale,
  Legend,
  Tooltip,
)

export type DrawnChart = { destroy(): void }

/**
 * Draws the chart, then writes on the canvas what its scales show (`data-scales`: each axis's id,
 * title and tick labels as drawn), so a browser test reads the axes of the picture itself.
 */
export function draw(canvas: HTMLCanvasElement, config: ChartConfiguration): DrawnChart {
  const chart = new Chart(canvas, config)
  const scales = Object.values(chart.scales).map((scale) => {
    // every scale we draw is cartesian: its options carry the axis title
    const title = (scale.options as { title?: { display?: boolean; text?: unknown } }).title
    return {
      id: scale.id,
      title: title?.display ? String(title.text ?? '') : '',
      ticks: scale.ticks.map((tick) => String(tick.label ?? '')),
    }
  })
  canvas.dataset.scales = JSON.stringify(scales)
  return chart
}
