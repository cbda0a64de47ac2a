// Every package in package.json is used: a dependency nothing imports is still downloaded, installed,
// audited and trusted (its install scripts, its updates) for nothing. A package counts as used when
// the code names it (an import, a require, a dynamic import, a string such as a font package's name, a
// path into node_modules/<name>/) in src/, sw/, scripts/, tests/, .ci/run or the tool configs at
// the root; when a script of package.json or .ci/run runs one of its commands; or, for @types/x,
// when x is used (or is Node itself). The few left are listed below, each with its reason.
import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs'
import { dirname, join, resolve } from 'node:path'
import { fileURLToPath } from 'node:url'
import { describe, expect, it } from 'vitest'

const ROOT = resolve(dirname(fileURLToPath(import.meta.url)), '../..')
const THIS_FILE = fileURLToPath(import.meta.url)

/** Used by nothing the scan can see, and kept on purpose. A line leaves when its reason does. */
const KEPT: Record<string, string> = {
  '@babel/core':
    "a peer dependency of @rolldown/plugin-babel, which runs Lingui's macro in vite.config.ts",
  '@types/babel__core':
    "the types of @rolldown/plugin-babel's options, which its declarations import from @babel/core",
  rolldown:
    'the version vite runs, declared so that npm ci finds its platform package in the lock file (docs/development.md)',
}

type Manifest = {
  scripts?: Record<string, string>
  bin?: string | Record<string, string>
  dependencies?: Record<string, string>
  devDependencies?: Record<string, string>
  optionalDependencies?: Record<string, string>
}

const readJson = (path: string) => JSON.parse(readFileSync(path, 'utf8')) as Manifest
const pkg = readJson(join(ROOT, 'package.json'))
const declared = Object.keys({
  ...pkg.dependencies,
  ...pkg.devDependencies,
  ...pkg.optionalDependencies,
})

function codeUnder(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    const path = join(dir, name)
    if (statSync(path).isDirectory()) return name === 'node_modules' ? [] : codeUnder(path)
    return /\.(ts|tsx|mts|mjs|js|cjs|html)$/.test(name) ? [path] : []
  })
}

const codeFiles = [
  ...['src', 'sw', 'scripts', 'tests'].flatMap((dir) => codeUnder(join(ROOT, dir))),
  ...readdirSync(ROOT)
    .filter((name) => /\.(ts|mts|mjs|js|cjs|html)$/.test(name))
    .map((name) => join(ROOT, name)),
  join(ROOT, '.ci/run'),
].filter((file) => file !== THIS_FILE && existsSync(file))
const code = codeFiles.map((file) => readFileSync(file, 'utf8')).join('\n')
const commands = [...Object.values(pkg.scripts ?? {}), readFileSync(join(ROOT, '.ci/run'), 'utf8')]

const literal = (text: string) => text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')

/** The code names the package: 'name', "name/sub", `name`, or node_modules/name/. */
const named = (name: string) =>
  new RegExp(`['"\`]${literal(name)}(/[^'"\`\\s]*)?['"\`]|node_modules/${literal(name)}/`).test(
    code,
  )

/** The commands a package installs in node_modules/.bin. */
function binsOf(name: string): string[] {
  const manifest = join(ROOT, 'node_modules', name, 'package.json')
  if (!existsSync(manifest)) return []
  const { bin } = readJson(manifest)
  if (!bin) return []
  return typeof bin === 'string' ? [name.replace(/^@[^/]+\//, '')] : Object.keys(bin)
}

const run = (name: string) =>
  binsOf(name).some((bin) =>
    commands.some((command) => new RegExp(`(^|[\\s;&|(])${literal(bin)}(\\s|$)`).test(command)),
  )

function used(name: string): boolean {
  const typed = /^@types\/(.+)$/.exec(name)?.[1]
  if (typed) {
    // @types/babel__core types @babel/core
    const of = typed.includes('__') ? `@${typed.replace('__', '/')}` : typed
    return of === 'node' || named(of) || (declared.includes(of) && used(of))
  }
  return named(name) || run(name)
}

describe('the dependencies in package.json', () => {
  it('finds what it scans (the check itself)', () => {
    expect(codeFiles.length).toBeGreaterThan(300)
    expect(used('hono')).toBe(true) // imported by the server
    expect(used('@fontsource/noto-sans')).toBe(true) // named as a string (content/fonts.ts)
    expect(used('vitest')).toBe(true) // imported by the tests, and run by the scripts
    expect(used('@biomejs/biome')).toBe(true) // run by `npm run lint` only
    expect(used('@types/pg')).toBe(true) // pg is imported
    expect(used('left-pad')).toBe(false)
  })

  it('are each used by the code, a script or the types of a used one, or kept with a reason', () => {
    const unused = declared.filter((name) => !used(name) && !(name in KEPT))
    expect(unused).toEqual([])
  })

  it('that are kept with a reason are declared, and still unused (the list only shrinks)', () => {
    const stale = Object.keys(KEPT).filter((name) => !declared.includes(name) || used(name))
    expect(stale).toEqual([])
  })
})
