// The guides a newcomer reads: README.md and docs/. They stay short, their links lead somewhere, and
// they point at nothing outside the repository. Decision records carry a date and a status.
import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs'
import { dirname, join, relative, resolve } from 'node:path'
import { fileURLToPath } from 'node:url'
import { describe, expect, it } from 'vitest'

const ROOT = resolve(dirname(fileURLToPath(import.meta.url)), '../..')

function markdownFiles(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    const path = join(dir, name)
    if (statSync(path).isDirectory()) return markdownFiles(path)
    return name.endsWith('.md') ? [path] : []
  })
}

const PAGES = [join(ROOT, 'README.md'), ...markdownFiles(join(ROOT, 'docs'))]
const read = (path: string) => readFileSync(path, 'utf8')
const name = (path: string) => relative(ROOT, path)

/** Outside code blocks and inline code: links there are examples, not links. */
function prose(text: string): string {
  return text
    .replace(/^```[\s\S]*?^```/gm, '')
    .replace(/^ {4}.*$/gm, '')
    .replace(/`[^`\n]*`/g, '')
}

/** GitHub's anchor for a heading: lower case, punctuation dropped, spaces as dashes. */
function anchor(heading: string): string {
  return heading
    .trim()
    .toLowerCase()
    .replace(/[`*_]/g, '')
    .replace(/[^\p{L}\p{N} -]/gu, '')
    .replace(/ /g, '-')
}

function anchors(path: string): Set<string> {
  const found = new Set<string>()
  for (const match of read(path).matchAll(/^#{1,6} (.+)$/gm)) found.add(anchor(match[1] ?? ''))
  return found
}

describe('the guides', () => {
  it('README.md is read in ten minutes: at most 300 lines', () => {
    expect(read(join(ROOT, 'README.md')).trimEnd().split('\n').length).toBeLessThanOrEqual(300)
  })

  it('every link in README.md and docs/ leads to a file of the repository, and its heading', () => {
    const broken: string[] = []
    for (const page of PAGES) {
      for (const match of prose(read(page)).matchAll(/\]\(([^)\s]+)\)/g)) {
        const target = match[1] ?? ''
        if (/^[a-z]+:/.test(target)) continue
        const [file = '', hash] = target.split('#')
        const path = file === '' ? page : resolve(dirname(page), file)
        if (!path.startsWith(ROOT) || !existsSync(path)) broken.push(`${name(page)}: ${target}`)
        else if (hash && path.endsWith('.md') && !anchors(path).has(hash)) {
          broken.push(`${name(page)}: ${target} (no such heading)`)
        }
      }
    }
    expect(broken).toEqual([])
  })

  it('name only files and folders that exist (decision records aside: they are history)', () => {
    const missing: string[] = []
    for (const page of PAGES.filter((p) => !p.includes('/docs/decisions/'))) {
      for (const match of read(page).matchAll(
        /`((?:src|sw|tests|scripts|docs|public)\/[^`\s*{}<]*)`/g,
      )) {
        const path = match[1] ?? ''
        if (!existsSync(join(ROOT, path))) missing.push(`${name(page)}: ${path}`)
      }
    }
    expect(missing).toEqual([])
  })

  it('point at nothing outside the repository, and name no ticket', () => {
    const found: string[] = []
    for (const page of PAGES) {
      const text = read(page)
      if (text.includes('../shared/')) found.push(`${name(page)}: ../shared/`)
      for (const match of text.matchAll(/\b(?:issue|item)s? #?\d+/gi)) {
        found.push(`${name(page)}: ${match[0]}`)
      }
    }
    expect(found).toEqual([])
  })

  it('every decision record has a date and a status, and the index lists it', () => {
    const dir = join(ROOT, 'docs/decisions')
    const index = read(join(dir, 'README.md'))
    const problems: string[] = []
    for (const file of readdirSync(dir).filter((f) => /^\d{3}-.+\.md$/.test(f))) {
      const text = read(join(dir, file))
      if (!/^Date: \d{4}-\d{2}-\d{2}/m.test(text))
        problems.push(`${file}: no Date: yyyy-mm-dd line`)
      if (!/^Status: (accepted|proposed|superseded|deprecated|rejected)/m.test(text)) {
        problems.push(`${file}: no Status: line`)
      }
      if (!index.includes(`](${file})`)) problems.push(`${file}: not in docs/decisions/README.md`)
    }
    expect(problems).toEqual([])
  })
})
