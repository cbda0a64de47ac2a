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

export function draw(canvas: HTMLCanvasElement, config: ChartConfiguration): DrawnChart {
  return new Chart(canvas, config)
}
