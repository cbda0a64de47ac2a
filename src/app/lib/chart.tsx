import type { ChartConfiguration, ChartDataset } from 'chart.js'
import { type CSSProperties, useEffect, useId, useMemo, useRef } from 'react'
import './chart.css'

// A small chart (bars, lines, or both) drawn with Chart.js, and the same figures as a table for
// screen readers, keyboard users and tests: the canvas is a picture named by the summary, the table
// beside it holds every value, written in the page's locale. Chart.js itself is loaded only when a
// chart mounts (chart-engine.ts), so importing this file costs a page almost nothing, and the shop's
// first screen none of it. The caller gives every text a person reads, already translated.

export type ChartSeries = {
  label: string
  values: readonly (number | null)[]
  /** bar (the default) or line; a chart may mix them */
  kind?: 'bar' | 'line'
  /** which value axis: left (the default) or right, for a second unit (money beside counts) */
  axis?: 'left' | 'right'
  /** a value as a person reads it (money, a count); the page's number format when absent */
  format?: (value: number) => string
  /** a CSS colour; a colour-blind-safe palette by default */
  color?: string
  /** series with the same stack name are stacked */
  stack?: string
}

/** A value axis: its title (what and in what unit: "Sales (EUR)", "Orders"), and whether it counts. */
export type ChartAxis = {
  title: string
  /** counts (orders, plays): ticks only at whole numbers, never "0.5 orders" */
  whole?: boolean
}

export type ChartProps = {
  /** what the chart shows, in a few words: its caption and the table's */
  title: string
  /** the chart in a sentence or two (totals, the highest day): the picture's accessible name */
  summary?: string
  /** the category axis (days, billboards), as the reader reads them */
  labels: readonly string[]
  /** the table's first column heading ("Day") */
  labelHeading: string
  series: readonly ChartSeries[]
  /** each axis named: the category axis's title ("Day"), the left value axis, the right one if any */
  axes: { x: string; left: ChartAxis; right?: ChartAxis }
  /** what will appear here, said when there is nothing to draw yet (no label, or every value 0) */
  empty: string
  /** the page's locale (Lingui's i18n.locale): numbers, and Chart.js's own tooltips */
  locale: string
  /** the picture's height in CSS pixels (200) */
  height?: number
  /** when given, the table sits in a details element with this summary, visible to everyone;
   * otherwise it is visually hidden and read by screen readers only */
  tableToggle?: string
  className?: string
}

/** Okabe and Ito's palette, told apart with any colour vision. */
export const CHART_COLORS = ['#0072B2', '#E69F00', '#009E73', '#CC79A7', '#56B4E9', '#D55E00']

const hidden: CSSProperties = {
  position: 'absolute',
  width: 1,
  height: 1,
  padding: 0,
  margin: -1,
  overflow: 'hidden',
  clip: 'rect(0 0 0 0)',
  whiteSpace: 'nowrap',
  border: 0,
}

/** Each series' value formatter, the page's number format where the series has none. */
export function seriesFormats(series: readonly ChartSeries[], locale: string) {
  const number = new Intl.NumberFormat(locale)
  return series.map((s) => s.format ?? ((n: number) => number.format(n)))
}

/** Whether there is anything to draw: a label, and a value other than 0 or unknown. */
export function hasFigures(props: Pick<ChartProps, 'labels' | 'series'>): boolean {
  return (
    props.labels.length > 0 && props.series.some((s) => s.values.some((v) => v !== null && v !== 0))
  )
}

/** The Chart.js configuration for these props (pure: tested without a browser). */
export function chartConfig(props: ChartProps): ChartConfiguration {
  const formats = seriesFormats(props.series, props.locale)
  const axisFormat = (axis: 'left' | 'right') => {
    const i = props.series.findIndex((s) => (s.axis ?? 'left') === axis)
    return i < 0 ? undefined : formats[i]
  }
  const hasRight = props.series.some((s) => s.axis === 'right')
  const stacked = props.series.some((s) => s.stack !== undefined)
  const datasets = props.series.map((s, i): ChartDataset => {
    const color = s.color ?? CHART_COLORS[i % CHART_COLORS.length] ?? '#0072B2'
    const base = {
      label: s.label,
      data: [...s.values],
      yAxisID: s.axis === 'right' ? 'right' : 'left',
      backgroundColor: color,
      borderColor: color,
    }
    return s.kind === 'line'
      ? { ...base, type: 'line', borderWidth: 2, pointRadius: 3, tension: 0 }
      : { ...base, type: 'bar', stack: s.stack ?? `own-${i}` }
  })
  const tick = (axis: 'left' | 'right') => {
    const format = axisFormat(axis)
    const whole = props.axes[axis]?.whole ? { precision: 0 } : {}
    return format
      ? { ...whole, callback: (value: number | string) => format(Number(value)) }
      : whole
  }
  const title = (text: string | undefined) =>
    text ? { display: true, text, font: { weight: 'bold' as const } } : { display: false }
  return {
    type: 'bar',
    data: { labels: [...props.labels], datasets },
    options: {
      locale: props.locale,
      animation: false,
      responsive: true,
      maintainAspectRatio: false,
      interaction: { mode: 'index', intersect: false },
      scales: {
        x: { stacked, title: title(props.axes.x), ticks: { autoSkip: true, maxRotation: 0 } },
        left: {
          type: 'linear',
          position: 'left',
          beginAtZero: true,
          stacked,
          title: title(props.axes.left.title),
          ticks: tick('left'),
        },
        ...(hasRight
          ? {
              right: {
                type: 'linear' as const,
                position: 'right' as const,
                beginAtZero: true,
                grid: { drawOnChartArea: false },
                title: title(props.axes.right?.title),
                ticks: tick('right'),
              },
            }
          : {}),
      },
      plugins: {
        legend: { display: props.series.length > 1, position: 'bottom' },
        tooltip: {
          callbacks: {
            label: (item) => {
              const format = formats[item.datasetIndex]
              const value = item.parsed.y
              return `${item.dataset.label ?? ''}: ${value === null || !format ? '' : format(value)}`
            },
          },
        },
      },
    },
  }
}

export function Chart(props: ChartProps) {
  const canvas = useRef<HTMLCanvasElement>(null)
  const tableId = useId()
  const formats = seriesFormats(props.series, props.locale)
  // redraw only when what is drawn changes, not at every render of the page
  const key = JSON.stringify([props.labels, props.series, props.locale])
  // biome-ignore lint/correctness/useExhaustiveDependencies: the key stands for the props it is made of
  const config = useMemo(() => chartConfig(props), [key])
  useEffect(() => {
    let drawn: { destroy(): void } | undefined
    let gone = false
    import('./chart-engine')
      .then(({ draw }) => {
        if (!gone && canvas.current) drawn = draw(canvas.current, config)
      })
      // the table holds every figure: a chart that cannot load (offline, an old browser) loses nothing
      .catch(() => undefined)
    return () => {
      gone = true
      drawn?.destroy()
    }
  }, [config])

  const table = (
    <table className="chart__table" id={tableId} style={props.tableToggle ? undefined : hidden}>
      <caption>{props.title}</caption>
      <thead>
        <tr>
          <th scope="col">{props.labelHeading}</th>
          {props.series.map((s) => (
            <th scope="col" key={s.label}>
              {s.label}
            </th>
          ))}
        </tr>
      </thead>
      <tbody>
        {props.labels.map((label, row) => (
          <tr key={label}>
            <th scope="row">{label}</th>
            {props.series.map((s, i) => {
              const value = s.values[row]
              return (
                <td key={s.label}>
                  {value === null || value === undefined ? '–' : formats[i]?.(value)}
                </td>
              )
            })}
          </tr>
        ))}
      </tbody>
    </table>
  )
  if (!hasFigures(props)) {
    return (
      <figure className={['chart', 'chart--empty', props.className].filter(Boolean).join(' ')}>
        <figcaption className="chart__title">{props.title}</figcaption>
        <p className="chart__empty">{props.empty}</p>
      </figure>
    )
  }
  return (
    <figure className={['chart', props.className].filter(Boolean).join(' ')}>
      <div className="chart__picture" style={{ position: 'relative', height: props.height ?? 200 }}>
        <canvas
          ref={canvas}
          role="img"
          aria-label={props.summary ?? props.title}
          aria-describedby={tableId}
          data-chart={props.title}
        />
      </div>
      {props.tableToggle ? (
        <details className="chart__details">
          <summary>{props.tableToggle}</summary>
          {table}
        </details>
      ) : (
        table
      )}
    </figure>
  )
}
