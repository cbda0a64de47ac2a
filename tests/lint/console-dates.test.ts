import { readdirSync, readFileSync, statSync } from 'node:fs'
import { join, relative } from 'node:path'
import { describe, expect, it } from 'vitest'

// The console writes every moment with one helper (src/app/ops/format.ts), on the clock of the place
// it belongs to and in the operator's language. A page that formats a date its own way (the browser's
// zone by default, its own style) is how the dashboard once showed a Paris event's midnight as
// "11:00 PM" the day before: this test finds such a page.

const root = join(import.meta.dirname, '..', '..')
const consoleDir = join(root, 'src', 'app', 'ops')
const HELPER = 'src/app/ops/format.ts'

/** Ways to turn a moment into text other than the helper's. */
const OWN_WAYS: readonly [RegExp, string][] = [
  [/Intl\.DateTimeFormat|\bDateTimeFormat\(/, 'Intl.DateTimeFormat'],
  [/\.toLocale(Date|Time)?String\(/, 'toLocaleString'],
  [/\.toUTCString\(|\.toDateString\(|\.toTimeString\(/, 'a Date method'],
  [/\b(dateStyle|timeStyle)\s*:/, 'a date style'],
]

function filesUnder(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    const path = join(dir, name)
    if (statSync(path).isDirectory()) return filesUnder(path)
    return /\.tsx?$/.test(name) && !/\.test\.tsx?$/.test(name) ? [path] : []
  })
}

describe("the console's dates", () => {
  const files = filesUnder(consoleDir).map((path) => relative(root, path))

  it('finds the console and its helper (the check itself)', () => {
    expect(files).toContain(HELPER)
    expect(files.length).toBeGreaterThan(20)
  })

  it('are written by the one helper, never by a page of its own', () => {
    const found = files
      .filter((file) => file !== HELPER)
      .flatMap((file) => {
        const text = readFileSync(join(root, file), 'utf8')
        return OWN_WAYS.filter(([pattern]) => pattern.test(text)).map(
          ([, way]) => `${file}: ${way}`,
        )
      })
    expect(found).toEqual([])
  })

  it('always name the zone: no helper call leaves it to the browser', () => {
    const helper = readFileSync(join(root, HELPER), 'utf8')
    // each exported writer of a moment takes a zone that is not optional
    expect(helper).not.toMatch(/timeZone\?:/)
  })
})
