// npm run size: what the shop's first screen loads, file by file and module by module, gzipped, read
// from the client build in dist/ (`npx vite build` or `npm run build` first). The first screen is what
// tests/e2e/budget.spec.ts measures in a browser: the entry index.html loads, the app it imports once
// the page is painted (src/app/main.tsx), what those import, and the first part of a language's
// catalog; the same files the server lists as modulepreload links (src/server/platform/ssr.ts).
// What the app would import lazily while the first screen loads is not listed here (the browser test
// counts it: it sees every script until the network is idle); today there is none.
//
// Each file is gzipped whole, as the budget test does (zlib's default level). Inside a file, its source
// map says which module wrote which bytes. A module's figure is what gzip saves when its bytes are left
// out of the file ("saves"): what moving it off the first screen would gain, its repetitions of its
// neighbours counting little; so the column sums to less than the file, the rest being what modules
// share. A package or a folder of src/ is measured the same way, as one.
//
// SIZE_LOCALE=fr|de picks the catalog (en); SIZE_TOP the number of modules listed (40).
import { existsSync, readFileSync } from 'node:fs'
import { dirname, join, relative, resolve } from 'node:path'
import { gzipSync } from 'node:zlib'
import { FIRST_SCREEN_BUDGET_BYTES } from '../src/app/lib/first-screen.ts'

const root = resolve(import.meta.dirname, '..')
const dist = join(root, 'dist')
const locale = process.env.SIZE_LOCALE ?? 'en'
const top = Number(process.env.SIZE_TOP ?? 40)

type ManifestChunk = {
  file: string
  imports?: string[]
  dynamicImports?: string[]
  isEntry?: boolean
}
const manifestFile = join(dist, '.vite', 'manifest.json')
if (!existsSync(manifestFile)) {
  console.error('dist/.vite/manifest.json is missing: build the app first (npx vite build)')
  process.exit(1)
}
const manifest = JSON.parse(readFileSync(manifestFile, 'utf8')) as Record<string, ManifestChunk>

/** The first screen's files, in the order the browser asks for them. */
function firstScreenFiles(): string[] {
  const files: string[] = []
  const walk = (key: string) => {
    const chunk = manifest[key]
    if (!chunk || files.includes(chunk.file)) return
    files.push(chunk.file)
    for (const dep of chunk.imports ?? []) walk(dep)
  }
  const entry = Object.keys(manifest).find((key) => manifest[key]?.isEntry)
  if (!entry) throw new Error('the manifest names no entry')
  walk(entry)
  for (const key of manifest[entry]?.dynamicImports ?? []) walk(key)
  walk(`src/locale/locales/${locale}/messages.po?first`)
  return files
}

const BASE64 = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/'

type Segment = { line: number; column: number; source: number }

/** Where each mapping segment starts in the generated file, and its source (-1: none). */
function decodeMappings(mappings: string): Segment[] {
  const segments: Segment[] = []
  let source = 0
  mappings.split(';').forEach((text, line) => {
    let column = 0
    for (const segment of text.split(',')) {
      if (!segment) continue
      const fields: number[] = []
      let value = 0
      let shift = 0
      for (const char of segment) {
        const digit = BASE64.indexOf(char)
        value += (digit & 31) << shift
        if (digit & 32) shift += 5
        else {
          fields.push(value & 1 ? -(value >>> 1) : value >>> 1)
          value = 0
          shift = 0
        }
      }
      column += fields[0] ?? 0
      if (fields.length >= 4) source += fields[1] ?? 0
      segments.push({ line, column, source: fields.length >= 4 ? source : -1 })
    }
  })
  return segments
}

type Run = { text: string; module: string }
const BUNDLER = '(bundler: imports, exports, preload lists)'

/** The file's text cut into runs, each written by one module (a path from the repository). */
function runsOf(file: string): Run[] {
  const code = readFileSync(join(dist, file), 'utf8')
  const mapFile = join(dist, `${file}.map`)
  if (!existsSync(mapFile)) return [{ text: code, module: '(bundler runtime, no source map)' }]
  const map = JSON.parse(readFileSync(mapFile, 'utf8')) as { sources: string[]; mappings: string }
  const names = map.sources.map((source) => {
    const path = relative(root, resolve(dirname(join(dist, file)), source)).split('?')[0] ?? source
    return path.startsWith('..') ? source : path
  })
  const lineStarts = [0]
  for (let i = 0; i < code.length; i++) if (code[i] === '\n') lineStarts.push(i + 1)
  const runs: Run[] = []
  let at = 0
  let module = BUNDLER
  const cut = (to: number) => {
    if (to <= at) return
    const last = runs.at(-1)
    if (last?.module === module) last.text += code.slice(at, to)
    else runs.push({ text: code.slice(at, to), module })
    at = to
  }
  for (const segment of decodeMappings(map.mappings)) {
    cut((lineStarts[segment.line] ?? code.length) + segment.column)
    module = segment.source >= 0 ? (names[segment.source] ?? BUNDLER) : BUNDLER
  }
  cut(code.length)
  return runs
}

/** A module's group: its package in node_modules, else its folder (src/app/features/home, …). */
function groupOf(module: string): string {
  const pkg = /node_modules\/((?:@[^/]+\/)?[^/]+)/.exec(module)
  if (pkg?.[1]) return pkg[1]
  if (module.startsWith('(')) return module
  const parts = module.split('/')
  return parts.slice(0, Math.min(parts.length - 1, module.startsWith('src/app/') ? 4 : 2)).join('/')
}

const gz = (text: string) => gzipSync(text).length
const bytes = (text: string) => Buffer.byteLength(text)
const kb = (n: number) => `${(n / 1024).toFixed(1)} KB`

type Row = { name: string; raw: number; saves: number; file: string }
const files = firstScreenFiles()
const modules: Row[] = []
const groups: Row[] = []
const fileLines: string[] = []
let total = 0
for (const file of files) {
  const runs = runsOf(file)
  const whole = runs.map((r) => r.text).join('')
  const size = gz(whole)
  total += size
  fileLines.push(`  ${String(size).padStart(7)} ${String(bytes(whole)).padStart(8)}  ${file}`)
  const savedWithout = (leaveOut: (module: string) => boolean) =>
    size -
    gz(
      runs
        .filter((r) => !leaveOut(r.module))
        .map((r) => r.text)
        .join(''),
    )
  const raw = new Map<string, number>()
  for (const r of runs) raw.set(r.module, (raw.get(r.module) ?? 0) + bytes(r.text))
  const groupRaw = new Map<string, number>()
  for (const [module, n] of raw) {
    modules.push({ name: module, raw: n, saves: savedWithout((m) => m === module), file })
    groupRaw.set(groupOf(module), (groupRaw.get(groupOf(module)) ?? 0) + n)
  }
  for (const [group, n] of groupRaw)
    groups.push({ name: group, raw: n, saves: savedWithout((m) => groupOf(m) === group), file })
}

const table = (rows: Row[], limit: number) =>
  rows
    .sort((a, b) => b.saves - a.saves)
    .slice(0, limit)
    .map(
      (r) =>
        `  ${String(r.saves).padStart(7)} ${String(r.raw).padStart(8)}  ${r.name}  [${r.file.replace(/^assets\//, '')}]`,
    )
    .join('\n')

const margin = FIRST_SCREEN_BUDGET_BYTES - total
console.log(
  `First screen (${locale}) from dist/: ${files.length} files, ${total} B gzipped (${kb(total)}); ` +
    `budget ${FIRST_SCREEN_BUDGET_BYTES} B, margin ${margin} B (${kb(margin)})`,
)
console.log(`\n  gzipped  minified  file\n${fileLines.join('\n')}`)
console.log(
  `\nBy package or folder:\n    saves  minified\n${table(groups, Number.POSITIVE_INFINITY)}`,
)
console.log(`\nThe ${top} modules that weigh most:\n    saves  minified\n${table(modules, top)}`)
