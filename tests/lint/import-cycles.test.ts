import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs'
import { dirname, join, relative } from 'node:path'
import ts from 'typescript'
import { describe, expect, it } from 'vitest'

// No module imports itself back through others: in a cycle, which file runs first depends on who was
// imported first, and a value read while its file has not run yet is undefined (a console page that
// rendered blank once the pages' table, a page and the sign-in link imported each other). Read here:
// the static imports of src/ and sw/ that stay at run time. Type-only imports vanish when compiled,
// and a dynamic import() is a lazy part loaded after the file that asks for it has run, so neither
// makes a cycle.

const root = join(import.meta.dirname, '..', '..')

function filesUnder(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    const path = join(dir, name)
    if (statSync(path).isDirectory()) return filesUnder(path)
    return /\.(ts|tsx|mjs)$/.test(name) && !/\.test\.tsx?$/.test(name) ? [path] : []
  })
}

/** The relative modules a source imports statically and keeps at run time. */
function runtimeImports(source: string): string[] {
  const file = ts.createSourceFile('probe.tsx', source, ts.ScriptTarget.Latest)
  const found: string[] = []
  for (const statement of file.statements) {
    const spec = (statement as ts.ImportDeclaration | ts.ExportDeclaration).moduleSpecifier
    if (!spec || !ts.isStringLiteral(spec) || !spec.text.startsWith('.')) continue
    if (ts.isImportDeclaration(statement)) {
      const clause = statement.importClause
      const bindings = clause?.namedBindings
      const onlyTypes =
        clause?.isTypeOnly ||
        (clause &&
          !clause.name &&
          bindings &&
          ts.isNamedImports(bindings) &&
          bindings.elements.length > 0 &&
          bindings.elements.every((e) => e.isTypeOnly))
      if (!onlyTypes) found.push(spec.text)
    } else if (ts.isExportDeclaration(statement)) {
      const exports = statement.exportClause
      const onlyTypes =
        statement.isTypeOnly ||
        (exports &&
          ts.isNamedExports(exports) &&
          exports.elements.length > 0 &&
          exports.elements.every((e) => e.isTypeOnly))
      if (!onlyTypes) found.push(spec.text)
    }
  }
  return found
}

function resolveLocal(from: string, spec: string): string | null {
  const base = join(dirname(from), spec)
  const candidates = [
    base,
    `${base}.ts`,
    `${base}.tsx`,
    join(base, 'index.ts'),
    join(base, 'index.tsx'),
  ]
  if (/\.js$/.test(base)) candidates.push(base.replace(/\.js$/, '.ts'))
  return candidates.find((c) => existsSync(c) && statSync(c).isFile()) ?? null
}

/** Each cycle once, as the files around it (the first file is the smallest name of the cycle). */
function cyclesOf(graph: Map<string, string[]>): string[][] {
  const cycles = new Map<string, string[]>()
  const state = new Map<string, 'open' | 'done'>()
  const path: string[] = []
  const visit = (file: string) => {
    state.set(file, 'open')
    path.push(file)
    for (const next of graph.get(file) ?? []) {
      if (state.get(next) === 'open') {
        const cycle = path.slice(path.indexOf(next))
        const start = cycle.indexOf([...cycle].sort()[0] as string)
        const turned = [...cycle.slice(start), ...cycle.slice(0, start)]
        cycles.set(turned.join(' → '), turned)
      } else if (!state.has(next)) visit(next)
    }
    path.pop()
    state.set(file, 'done')
  }
  for (const file of [...graph.keys()].sort()) if (!state.has(file)) visit(file)
  return [...cycles.values()]
}

describe('imports', () => {
  it('finds a cycle and leaves type-only and lazy imports out (the check itself)', () => {
    expect(runtimeImports("import { a } from './a'\nimport type { B } from './b'")).toEqual(['./a'])
    expect(runtimeImports("import { type B, type C } from './b'")).toEqual([])
    expect(runtimeImports("import { type B, c } from './b'")).toEqual(['./b'])
    expect(runtimeImports("export { x } from './x'\nimport './styles.css'")).toEqual([
      './x',
      './styles.css',
    ])
    expect(runtimeImports("const page = () => import('./page')")).toEqual([])
    const graph = new Map([
      ['a', ['b']],
      ['b', ['c']],
      ['c', ['a', 'd']],
      ['d', []],
    ])
    expect(cyclesOf(graph)).toEqual([['a', 'b', 'c']])
    expect(cyclesOf(new Map([...graph, ['c', ['d']]]))).toEqual([])
  })

  // Read once while the tests are collected, as the other source checks do: reading some 500 files
  // is work of the machine's speed, not of the test's time limit.
  const files = ['src', 'sw'].flatMap((dir) => filesUnder(join(root, dir)))
  const graph = new Map<string, string[]>()
  for (const file of files) {
    const targets = runtimeImports(readFileSync(file, 'utf8'))
      .map((spec) => resolveLocal(file, spec))
      .filter((target): target is string => target !== null)
    graph.set(
      relative(root, file),
      targets.map((target) => relative(root, target)),
    )
  }

  it('make no cycle in src/ or sw/', () => {
    expect(files.length).toBeGreaterThan(300)
    expect(cyclesOf(graph).map((cycle) => cycle.join(' → '))).toEqual([])
  })
})
