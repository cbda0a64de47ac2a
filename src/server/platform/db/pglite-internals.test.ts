// The embedded database's thread (pglite-thread-main.mjs) speaks Postgres's wire protocol to PGlite
// through parts none of the three packages promise to keep: node-postgres's value conversion
// (`pg/lib/utils.js` prepareValue), pg-protocol's message reader (`pg-protocol/dist/parser.js`) and
// PGlite's `execProtocolRawStream`, whose work is done before it returns when it need not sync to
// disk. So the three are pinned to exact versions in package.json, and this checks that the installed
// ones are the pinned ones and that each part still has the shape and the behaviour the thread relies
// on: raising a pin is done here first, and a version whose internals moved fails here, by name.
import { readFileSync } from 'node:fs'
import { createRequire } from 'node:module'
import { join } from 'node:path'
import { PGlite } from '@electric-sql/pglite'
import pg from 'pg'
import { serialize } from 'pg-protocol'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { PROJECT_ROOT } from '../paths.ts'

/** The packages whose internals the thread reads, pinned exactly. */
const PINNED = ['@electric-sql/pglite', 'pg', 'pg-protocol'] as const

const readJson = (path: string) => JSON.parse(readFileSync(path, 'utf8')) as Record<string, unknown>
const manifest = readJson(join(PROJECT_ROOT, 'package.json')) as {
  dependencies: Record<string, string>
}
const lock = readJson(join(PROJECT_ROOT, 'package-lock.json')) as {
  packages: Record<string, { version?: string }>
}
const installed = (name: string) =>
  readJson(join(PROJECT_ROOT, 'node_modules', name, 'package.json')).version

// The thread imports them as ES modules' default imports of CommonJS files, which is module.exports.
const require = createRequire(join(PROJECT_ROOT, 'src/server/platform/db/pglite-thread-main.mjs'))
const pgUtils = require('pg/lib/utils.js') as { prepareValue?: unknown }
const parserModule = require('pg-protocol/dist/parser.js') as { Parser?: unknown }

type Message = {
  name: string
  fields?: unknown[]
  text?: string
  code?: string
}

describe('the packages the embedded database thread reads inside', () => {
  it('are pinned to one exact version each, and that version is the one installed and locked', () => {
    for (const name of PINNED) {
      const pin = manifest.dependencies[name]
      expect(pin, `${name} in package.json`).toMatch(/^\d+\.\d+\.\d+$/)
      expect(installed(name), `node_modules/${name}`).toBe(pin)
      expect(lock.packages[`node_modules/${name}`]?.version, `${name} in package-lock.json`).toBe(
        pin,
      )
      // a second copy somewhere below would be one the thread may load instead
      const copies = Object.keys(lock.packages).filter((path) =>
        path.endsWith(`/node_modules/${name}`),
      )
      expect(copies, `other copies of ${name}`).toEqual([])
    }
  })

  it('pg/lib/utils.js converts values as node-postgres sends them', () => {
    expect(typeof pgUtils.prepareValue).toBe('function')
    const prepareValue = pgUtils.prepareValue as (value: unknown) => unknown
    expect(prepareValue(null)).toBeNull()
    expect(prepareValue(undefined)).toBeNull()
    expect(prepareValue(12)).toBe('12')
    expect(prepareValue(true)).toBe('true')
    expect(prepareValue({ a: 1 })).toBe('{"a":1}')
    expect(prepareValue(['a', null, 'b"c'])).toBe('{"a",NULL,"b\\"c"}')
    const bytes = Buffer.from([0, 1, 2])
    expect(prepareValue(bytes)).toBe(bytes)
    const epoch = prepareValue(new Date(0))
    expect(epoch).toMatch(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}(Z|[+-]\d\d:\d\d)$/)
    expect(Date.parse(epoch as string)).toBe(0)
  })

  it('pg-protocol/dist/parser.js reads a chunk of messages into named, parsed messages', () => {
    expect(typeof parserModule.Parser).toBe('function')
    const Parser = parserModule.Parser as new () => {
      parse(bytes: Buffer, onMessage: (message: Message) => void): void
    }
    // ReadyForQuery ('Z', length 5, status 'I'), then CommandComplete ('C', "SELECT 1\0")
    const tag = Buffer.from('SELECT 1\0')
    const length = Buffer.alloc(4)
    length.writeInt32BE(4 + tag.length)
    const bytes = Buffer.concat([
      Buffer.from([0x43]),
      length,
      tag,
      Buffer.from([0x5a, 0, 0, 0, 5, 0x49]),
    ])
    const seen: Message[] = []
    new Parser().parse(bytes, (message) => seen.push(message))
    expect(seen.map((m) => m.name)).toEqual(['commandComplete', 'readyForQuery'])
    expect(seen[0]?.text).toBe('SELECT 1')
  })

  it('pg-protocol serializes every message the thread sends', () => {
    for (const message of ['parse', 'bind', 'describe', 'execute', 'sync', 'query', 'close'])
      expect(typeof (serialize as Record<string, unknown>)[message], message).toBe('function')
  })

  describe('PGlite execProtocolRawStream', () => {
    let db: PGlite
    beforeAll(async () => {
      db = new PGlite()
      await db.waitReady
    }, 60_000)
    afterAll(async () => {
      await db?.close()
    })

    /** What the thread does: one call, the answer collected before the call returns, then parsed. */
    function roundTrip(messages: Buffer[]): Message[] {
      const chunks: Buffer[] = []
      void db
        .execProtocolRawStream(Buffer.concat(messages), {
          syncToFs: false,
          onRawData: (raw: Uint8Array) => void chunks.push(Buffer.from(raw)),
        })
        .catch(() => undefined)
      // taken before any await: the thread relies on the work being done within the call
      const answer = Buffer.concat(chunks)
      const seen: Message[] = []
      const Parser = parserModule.Parser as new () => {
        parse(bytes: Buffer, onMessage: (message: Message) => void): void
      }
      new Parser().parse(answer, (message) => seen.push(message))
      return seen
    }

    const statement = (text: string, values: unknown[]) => {
      const prepareValue = pgUtils.prepareValue as (value: unknown) => unknown
      return [
        serialize.parse({ name: '', text }),
        serialize.bind({
          statement: '',
          values: values.map((value) => prepareValue(value)) as (string | Buffer | null)[],
        }),
        serialize.describe({ type: 'P' }),
        serialize.execute({}),
        serialize.sync(),
      ]
    }

    it('answers a statement with values within the call, and the rows convert as on PostgreSQL', () => {
      const when = new Date('2030-05-07T10:11:12.345Z')
      const seen = roundTrip(
        statement('select $1::timestamptz as at, $2::jsonb as doc, $3::bytea as raw', [
          when,
          { a: [1, 'x'] },
          Buffer.from([7, 8]),
        ]),
      )
      expect(seen.map((m) => m.name)).toEqual([
        'parseComplete',
        'bindComplete',
        'rowDescription',
        'dataRow',
        'commandComplete',
        'readyForQuery',
      ])
      const columns = (seen[2]?.fields ?? []) as { name: string; dataTypeID: number }[]
      expect(columns.map((c) => c.name)).toEqual(['at', 'doc', 'raw'])
      const values = (seen[3]?.fields ?? []) as string[]
      const row = columns.map((c, i) => pg.types.getTypeParser(c.dataTypeID, 'text')(values[i]))
      expect(row).toEqual([when, { a: [1, 'x'] }, Buffer.from([7, 8])])
    })

    it("answers a failing statement with PostgreSQL's error and is ready for the next", () => {
      const seen = roundTrip(statement('select 1 / $1::int', [0]))
      expect(seen.find((m) => m.name === 'error')?.code).toBe('22012')
      expect(seen.at(-1)?.name).toBe('readyForQuery')
      expect(roundTrip([serialize.query('select 2 as two')]).map((m) => m.name)).toContain(
        'dataRow',
      )
    })
  })
})
