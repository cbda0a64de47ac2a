import { createElement } from 'react'
import { renderToStaticMarkup } from 'react-dom/server'
import { describe, expect, it } from 'vitest'
import { Chart, type ChartProps, chartConfig } from './chart'
import { shortDay } from './display-date'

const plays: ChartProps = {
  title: 'Plays per day',
  summary: 'Plays per day: 1,250 scheduled, 1,200 proven.',
  labels: ['Nov 24', 'Nov 25'],
  labelHeading: 'Day',
  axes: { x: 'Day', left: { title: 'Plays', whole: true }, right: { title: 'Spend (EUR)' } },
  empty: 'No plays yet.',
  locale: 'en',
  series: [
    { label: 'Scheduled', values: [1000, 250] },
    { label: 'Proven', values: [980, null], kind: 'line' },
    {
      label: 'Spend',
      values: [123456, 0],
      axis: 'right',
      format: (n) => `€${(n / 100).toFixed(2)}`,
    },
  ],
}

describe('a chart', () => {
  it('gives screen readers every figure in a table, in the page’s number format', () => {
    const html = renderToStaticMarkup(createElement(Chart, plays))
    expect(html).toContain('<caption>Plays per day</caption>')
    expect(html).toContain('<th scope="row">Nov 24</th><td>1,000</td><td>980</td><td>€1234.56</td>')
    // a value not known yet is a dash, not a zero
    expect(html).toContain('<th scope="row">Nov 25</th><td>250</td><td>–</td><td>€0.00</td>')
    expect(html).toContain('aria-label="Plays per day: 1,250 scheduled, 1,200 proven."')
  })

  it('writes numbers and days in German on a German page', () => {
    const html = renderToStaticMarkup(createElement(Chart, { ...plays, locale: 'de' }))
    expect(html).toContain('<td>1.000</td>')
    expect(shortDay('2026-11-25', 'de')).toBe('25. Nov.')
    expect(shortDay('2026-11-25', 'fr')).toBe('25 nov.')
    expect(shortDay('2026-11-25', 'en')).toBe('Nov 25')
  })

  it('shows the table to everyone behind a toggle when asked', () => {
    const html = renderToStaticMarkup(createElement(Chart, { ...plays, tableToggle: 'As a table' }))
    expect(html).toMatch(/<details class="chart__details"><summary>As a table<\/summary><table/)
    expect(html).not.toContain('clip:rect')
  })

  it('draws money on a second axis, lines as lines, ticks in the series’ format', () => {
    const config = chartConfig(plays)
    const datasets = config.data.datasets
    expect(datasets.map((d) => d.type)).toEqual(['bar', 'line', 'bar'])
    expect(datasets.map((d) => (d as { yAxisID?: string }).yAxisID)).toEqual([
      'left',
      'left',
      'right',
    ])
    const right = config.options?.scales?.right as { ticks: { callback: (v: number) => string } }
    expect(right.ticks.callback(5000)).toBe('€50.00')
    const left = config.options?.scales?.left as { ticks: { callback: (v: number) => string } }
    expect(left.ticks.callback(5000)).toBe('5,000')
    expect(config.options?.locale).toBe('en')
  })

  it('names every axis, and counts only in whole numbers', () => {
    const scales = chartConfig(plays).options?.scales as Record<
      string,
      { title: { display: boolean; text?: string }; ticks: { precision?: number } }
    >
    expect(scales.x?.title).toMatchObject({ display: true, text: 'Day' })
    expect(scales.left?.title).toMatchObject({ display: true, text: 'Plays' })
    expect(scales.right?.title).toMatchObject({ display: true, text: 'Spend (EUR)' })
    expect(scales.left?.ticks.precision).toBe(0)
    expect(scales.right?.ticks.precision).toBeUndefined()
  })

  it('says what will appear when there is nothing to draw yet', () => {
    const none = { ...plays, series: plays.series.map((s) => ({ ...s, values: [0, null] })) }
    const html = renderToStaticMarkup(createElement(Chart, none))
    expect(html).toContain('<p class="chart__empty">No plays yet.</p>')
    expect(html).not.toContain('<canvas')
    expect(renderToStaticMarkup(createElement(Chart, { ...plays, labels: [] }))).toContain(
      'No plays yet.',
    )
  })
})
