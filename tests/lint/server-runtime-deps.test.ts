// Deploying: a production install (`npm ci --omit=dev`, then `npm run start:prod`) has no
// devDependencies. This walks the server's module graph from its entry points, through every static
// and dynamic import of its own files (the TypeScript sources tsx runs, and the contract, domain and
// locale they import), and checks that each package it imports is a dependency (or an optional one),
// never only a devDependency. Type-only imports are erased at run time and not counted.
import { existsSync, readFileSync } from 'node:fs'
import { builtinModules } from 'node:module'
import { dirname, join, relative, resolve } from 'node:path'
import { fileURLToPath } from 'node:url'
import { describe, expect, it } from 'vitest'

const ROOT = resolve(dirname(fileURLToPath(import.meta.url)), '../..')
const pkg = JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8')) as {
  scripts: Record<string, string>
  dependencies: Record<string, string>
  optionalDependencies?: Record<string, string>
  devDependencies: Record<string, string>
}

/** What the server runs: its entry, and the scripts it starts as child processes. */
const ENTRIES = [
  'src/server/main.ts',
  'src/server/content/content-worker-main.ts',
  'src/server/platform/db/pglite-init.mjs',
  'src/server/catalogue/import-cli.ts',
]

// import x from 'y', import {a} from 'y', export * from 'y', import 'y', import('y'), with `import type`
// and `export type` left out.
const STATIC = /^\s*(import|export)\s+(?!type\s)(?:[^'"]*?\sfrom\s+)?['"]([^'"]+)['"]/gm
const DYNAMIC = /\bimport\(\s*['"]([^'"]+)['"]\s*\)/g

function specifiers(source: string): string[] {
  const found: string[] = []
  for (const match of source.matchAll(STATIC)) if (match[2]) found.push(match[2])
  for (const match of source.matchAll(DYNAMIC)) if (match[1]) found.push(match[1])
  return found
}

function resolveLocal(from: string, spec: string): string {
  const base = resolve(dirname(from), spec)
  for (const candidate of [base, `${base}.ts`, `${base}.tsx`, join(base, 'index.ts')]) {
    if (existsSync(candidate) && !candidate.endsWith('/')) {
      try {
        readFileSync(candidate)
        return candidate
      } catch {}
    }
  }
  throw new Error(`${relative(ROOT, from)} imports ${spec}, which is not there`)
}

const packageName = (spec: string) =>
  spec.startsWith('@') ? spec.split('/').slice(0, 2).join('/') : (spec.split('/')[0] ?? spec)

function walk(): { files: Set<string>; packages: Map<string, string> } {
  const files = new Set<string>()
  const packages = new Map<string, string>()
  const queue = ENTRIES.map((entry) => join(ROOT, entry))
  for (let file = queue.pop(); file; file = queue.pop()) {
    if (files.has(file)) continue
    files.add(file)
    // Assets read at run time (JSON, .po, fonts) are not modules.
    if (!/\.(ts|tsx|mjs|js)$/.test(file)) continue
    for (const spec of specifiers(readFileSync(file, 'utf8'))) {
      if (spec.startsWith('.')) queue.push(resolveLocal(file, spec))
      else if (spec.startsWith('node:') || builtinModules.includes(spec)) continue
      else if (!packages.has(packageName(spec)))
        packages.set(packageName(spec), relative(ROOT, file))
    }
  }
  return { files, packages }
}

describe('the server in production', () => {
  const { files, packages } = walk()

  it('imports only dependencies, never a devDependency', () => {
    // The walk found the server's modules (a broken walk would find nothing and pass).
    expect(files.size).toBeGreaterThan(50)
    expect([...packages.keys()]).toEqual(expect.arrayContaining(['hono', 'pg', 'valibot']))
    const runtime = { ...pkg.dependencies, ...pkg.optionalDependencies }
    const missing = [...packages].filter(([name]) => !(name in runtime))
    expect(missing.map(([name, file]) => `${name} (imported by ${file})`)).toEqual([])
  })

  it('starts from the bundle `npm run build` made, with plain Node and no compiler', () => {
    const start = pkg.scripts['start:prod'] ?? ''
    expect(start).toMatch(/\bnode (--[\w-]+=\S+ )*build\/node\/main\.mjs$/)
    expect(start).not.toMatch(/npm run build|vite|esbuild|--import/)
    // building is `npm run build`'s: the server never runs a child process of its own to build
    const main = readFileSync(join(ROOT, 'src/server/main.ts'), 'utf8')
    expect(main).not.toMatch(/child_process|vite|esbuild/)
    expect(pkg.scripts.build).toMatch(/scripts\/build-server\.ts/)
  })
})
