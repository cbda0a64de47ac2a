import { describe, expect, it } from 'vitest'
import { englishOf } from '../../contract/problems.ts'
import { demoCatalogue } from './demo-catalogue.ts'
import { placeholderNames } from './placeholders.ts'
import { checkCatalogue } from './service.ts'

// The pattern templates were read with before: kept here only to show the scan finds the same names.
const OLD_PATTERN = /\{\{\s*([^{}]*?)\s*\}\}/g
const byOldPattern = (html: string) => [...html.matchAll(OLD_PATTERN)].map((m) => m[1] ?? '')

describe("a template's placeholders", () => {
  it.each([
    ['<p>{{buyerName}}</p>'],
    ['<p>{{ buyerName }} and {{\nrecipientName\t}}</p>'],
    ['{{}}'],
    ['{{  }}'],
    ['{{{buyerName}}'],
    ['{{{{buyerName}}}}'],
    ['{{ buyer Name }}'],
    ['{{buyerName}'],
    ['{{buyerName} }}'],
    ['{{buyer{Name}}'],
    ['}}{{ photoUrl }}{{'],
    ['{ {buyerName}} {{a}}{{b}}'],
    ['no placeholder at all'],
    ['{{ a } {{ b }}'],
  ])('are read from %j as they always were', (html) => {
    expect(placeholderNames(html)).toEqual(byOldPattern(html))
  })

  // Each of these took the old pattern seconds to minutes (cubic in the run of spaces); the scan
  // answers at once, so a regression shows as this test timing out, not as a measured time.
  it('are read at once from `{{` and twenty thousand spaces', () => {
    expect(placeholderNames(`{{${' '.repeat(20_000)}`)).toEqual([])
    expect(placeholderNames(`{{${' '.repeat(20_000)}}`)).toEqual([])
    expect(placeholderNames(`{{${' '.repeat(20_000)}x${' '.repeat(20_000)}}}`)).toEqual(['x'])
    expect(placeholderNames(`${'{{ '.repeat(30_000)}`)).toEqual([])
    expect(placeholderNames(`{{${'\t\n '.repeat(30_000)}{{photoUrl}}`)).toEqual(['photoUrl'])
  })

  it('a catalogue whose template is `{{` and spaces past the length limit is refused at once', () => {
    const catalogue = demoCatalogue(Date.UTC(2026, 0, 1))
    const template = catalogue.templates?.[0]
    if (!template) throw new Error('the demo catalogue has a template')
    const hurtful = { ...catalogue, templates: [{ ...template, html: `{{${' '.repeat(200_000)}` }] }
    const checked = checkCatalogue(hurtful)
    expect(checked.success).toBe(false)
    if (checked.success) return
    expect(checked.problems.map(englishOf)).toEqual([
      expect.stringMatching(/^\$\.templates\[0\]\.html: /),
    ])
  })

  it('a catalogue whose template is `{{` and spaces under the limit names it as an unknown placeholder', () => {
    const catalogue = demoCatalogue(Date.UTC(2026, 0, 1))
    const template = catalogue.templates?.[0]
    if (!template) throw new Error('the demo catalogue has a template')
    const html = `<div>{{${' '.repeat(20_000)}nope${' '.repeat(20_000)}}}</div>`
    const checked = checkCatalogue({ ...catalogue, templates: [{ ...template, html }] })
    expect(checked.success).toBe(false)
    if (checked.success) return
    expect(checked.problems).toEqual([
      {
        code: 'catalogue_placeholder_unknown',
        params: expect.objectContaining({ field: '$.templates[0].html', placeholder: '{{nope}}' }),
      },
    ])
  })
})
