import { readdirSync, readFileSync, statSync } from 'node:fs'
import { join, relative } from 'node:path'
import { describe, expect, it } from 'vitest'

// No source file over 450 lines: past that a file holds several concerns, and a reader cannot keep
// it in mind (the order service was once a 637-line closure of card setup, placing, charging and
// recovery). Counted: the code of src/, sw/ and scripts/. Not counted: tests (a test file is a list
// of cases), generated files (the route tree) and stylesheets.

const root = join(import.meta.dirname, '..', '..')
const MAX_LINES = 450

// Files being split by the part of the work that owns them; each leaves the list with its split, and
// a file listed here that fits fails the test (so the list only shrinks).
const BEING_SPLIT = new Set<string>([])

function codeUnder(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    const path = join(dir, name)
    if (statSync(path).isDirectory()) return codeUnder(path)
    const code = /\.(ts|tsx|mjs|js)$/.test(name) && !/\.(test|spec)\.tsx?$|\.gen\.ts$/.test(name)
    return code ? [path] : []
  })
}

const lineCount = (text: string) =>
  text === '' ? 0 : text.split('\n').length - (text.endsWith('\n') ? 1 : 0)

describe('source files', () => {
  const files = ['src', 'sw', 'scripts'].flatMap((dir) => codeUnder(join(root, dir)))
  const lengths = files.map((file) => ({
    file: relative(root, file),
    lines: lineCount(readFileSync(file, 'utf8')),
  }))

  it('counts lines as wc -l does (the check itself)', () => {
    expect(lineCount('a\nb\n')).toBe(2)
    expect(lineCount('a\nb')).toBe(2)
    expect(lineCount('')).toBe(0)
    expect(lengths.length).toBeGreaterThan(300)
  })

  it(`are at most ${MAX_LINES} lines long`, () => {
    const long = lengths.filter(({ file, lines }) => lines > MAX_LINES && !BEING_SPLIT.has(file))
    expect(long.map(({ file, lines }) => `${file}: ${lines} lines`)).toEqual([])
  })

  it('that were being split and fit now leave the list', () => {
    const fit = lengths.filter(({ file, lines }) => BEING_SPLIT.has(file) && lines <= MAX_LINES)
    expect(fit.map(({ file }) => file)).toEqual([])
    const gone = [...BEING_SPLIT].filter((file) => !lengths.some((l) => l.file === file))
    expect(gone).toEqual([])
  })
})
