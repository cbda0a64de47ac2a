import { readdirSync, readFileSync, statSync } from 'node:fs'
import { join, relative, sep } from 'node:path'
import { describe, expect, it } from 'vitest'

// Each table has one owning module (src/server/README.md, "Who owns which table"): only the files of
// that module's folder hold SQL on it. Another module reads it through the owner's service or read
// model (its reads.ts) and changes it through its service. This test reads every SQL template of
// src/server (sql`...`, nested ones too) for the tables it names, and fails on a table named outside
// its owner, a table of the migrations without an owner, or an owner list in docs/architecture.md
// that differs from the server's.

const root = join(import.meta.dirname, '..', '..')
const server = join(root, 'src', 'server')

function filesUnder(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    const path = join(dir, name)
    return statSync(path).isDirectory() ? filesUnder(path) : [path]
  })
}

/** The tables the migrations create (and no later one drops). */
function migratedTables(): string[] {
  const dir = join(server, 'platform', 'db', 'migrations')
  const text = readdirSync(dir)
    .filter((name) => name.endsWith('.sql'))
    .map((name) => readFileSync(join(dir, name), 'utf8'))
    .join('\n')
  const dropped = new Set(
    [...text.matchAll(/drop table (?:if exists )?([a-z_]+)/g)].map((m) => m[1]),
  )
  return [...text.matchAll(/create table (?:if not exists )?([a-z_]+)/g)]
    .map((m) => m[1] as string)
    .filter((table) => !dropped.has(table))
}

/** `| \`table\` | module/ |` rows of a page's owner table (the first two cells). */
function ownerRows(page: string): Map<string, string> {
  const owners = new Map<string, string>()
  const text = readFileSync(join(root, page), 'utf8')
  const section = text.slice(text.indexOf('Who owns which table'))
  for (const match of section.matchAll(/^\| `([a-z_]+)` \| `?([a-z-]+)\/`? \|/gm)) {
    const [, table, owner] = match as unknown as [string, string, string]
    expect(owners.has(table), `${page} lists ${table} twice`).toBe(false)
    owners.set(table, owner)
  }
  return owners
}

/** The text of every sql`` template in a source (nested templates on their own). */
function sqlTemplates(source: string): string[] {
  const found: string[] = []
  // Reads a template literal from after its opening backtick; answers its text (without the
  // ${...} expressions, whose own templates are read on the way) and where it ends.
  const template = (from: number): [string, number] => {
    let text = ''
    let i = from
    while (i < source.length) {
      const c = source[i]
      if (c === '\\') {
        text += source.slice(i, i + 2)
        i += 2
      } else if (c === '`') {
        return [text, i + 1]
      } else if (c === '$' && source[i + 1] === '{') {
        i = expression(i + 2)
        text += ' ? '
      } else {
        text += c
        i++
      }
    }
    return [text, i]
  }
  // Skips an expression up to its closing brace, reading the templates inside it.
  const expression = (from: number): number => {
    let depth = 1
    let i = from
    while (i < source.length && depth > 0) {
      const c = source[i]
      if (c === '`') {
        const tagged = /sql(?:<[^`]*>)?\s*$/.test(source.slice(Math.max(0, i - 200), i))
        const [text, end] = template(i + 1)
        if (tagged) found.push(text)
        i = end
        continue
      }
      if (c === "'" || c === '"') {
        const end = source.indexOf(c, i + 1)
        i = end < 0 ? source.length : end + 1
        continue
      }
      if (c === '{') depth++
      if (c === '}') depth--
      i++
    }
    return i
  }
  const clean = source.replace(/\/\*[\s\S]*?\*\//g, '').replace(/^\s*\/\/.*$/gm, '')
  return (() => {
    const saved = source
    source = clean
    expression(0)
    source = saved
    return found
  })()
}

const TABLE_WORD = /\b(?:from|join|into|update|table|exists)\s+([a-z_]+)\b/gi

describe('the tables', () => {
  const tables = migratedTables()
  const owners = ownerRows('src/server/README.md')

  it('each have one owning module, listed in src/server/README.md and docs/architecture.md', () => {
    expect([...owners.keys()].sort()).toEqual([...tables].sort())
    const modules = new Set(
      readdirSync(server).filter((name) => statSync(join(server, name)).isDirectory()),
    )
    for (const [table, owner] of owners) {
      expect(modules.has(owner), `${table}: no module ${owner}/`).toBe(true)
    }
    expect(Object.fromEntries(ownerRows('docs/architecture.md'))).toEqual(
      Object.fromEntries(owners),
    )
  })

  it('are queried only by the files of their owner', () => {
    const known = new Set(tables)
    const outside: string[] = []
    for (const file of filesUnder(server)) {
      if (!/\.(ts|mjs)$/.test(file) || /\.test\.ts$/.test(file)) continue
      const path = relative(server, file)
      // A migration (.sql or a .ts data conversion) is the schema's history: it may touch any table.
      if (path.startsWith(join('platform', 'db', 'migrations') + sep)) continue
      const module = path.includes(sep) ? path.split(sep)[0] : '(the root)'
      for (const text of sqlTemplates(readFileSync(file, 'utf8'))) {
        for (const [, word] of text.matchAll(TABLE_WORD)) {
          const table = (word as string).toLowerCase()
          if (known.has(table) && owners.get(table) !== module) {
            outside.push(`${relative(root, file)}: ${table} (owned by ${owners.get(table)}/)`)
          }
        }
      }
    }
    expect([...new Set(outside)]).toEqual([])
  })

  it('are found in a nested template, and a query of another module’s table fails', () => {
    // written in two parts: a `$` and a `{` side by side in a string read as a mistake by the linter
    const source = [
      'const a = sql`select 1 from orders o where ',
      '{sql`exists (select 1 from plays p)`}`',
    ].join('$')
    expect(sqlTemplates(source).join(' | ')).toContain('from plays p')
    expect(sqlTemplates(source).join(' | ')).toContain('from orders o')
    expect(sqlTemplates('log.info(`moved from orders`)')).toEqual([])
  })
})
