import { describe, expect, it } from 'vitest'
import { at, compile, epochMs, joinSql, json, sql } from './sql.ts'

describe('sql``', () => {
  it('keeps every value out of the text, as numbered parameters', () => {
    const guid = "x'; drop table orders; --"
    expect(compile(sql`select * from orders where guid = ${guid} and state = ${'Failed'}`)).toEqual(
      {
        text: 'select * from orders where guid = $1 and state = $2',
        values: [guid, 'Failed'],
      },
    )
  })

  it('splices fragments with their own values renumbered', () => {
    const direction = sql`desc`
    const where = sql`event_slug = ${'live'} and device_id = ${'paris-1'}`
    expect(
      compile(sql`select 1 from t where ${where} order by id ${direction} limit ${10}`),
    ).toEqual({
      text: 'select 1 from t where event_slug = $1 and device_id = $2 order by id desc limit $3',
      values: ['live', 'paris-1', 10],
    })
  })

  it('joins fragments with a separator', () => {
    const rows = [1, 2, 3].map((n) => sql`(${n}, ${`v${n}`})`)
    expect(compile(sql`insert into t values ${joinSql(rows)}`)).toEqual({
      text: 'insert into t values ($1, $2), ($3, $4), ($5, $6)',
      values: [1, 'v1', 2, 'v2', 3, 'v3'],
    })
    expect(compile(sql`a${joinSql([])}b`)).toEqual({ text: 'ab', values: [] })
  })

  it('sends JSON as text (a JS array would become a PostgreSQL array)', () => {
    expect(compile(sql`values (${json(['photo'])}::jsonb)`).values).toEqual(['["photo"]'])
  })
})

describe('time helpers', () => {
  it('sends a time as a timestamptz parameter and reads one back as epoch milliseconds', () => {
    expect(compile(sql`where t < ${at(0)} and u = ${at(null)}`)).toEqual({
      text: 'where t < $1::timestamptz and u = $2::timestamptz',
      values: ['1970-01-01T00:00:00.000Z', null],
    })
    expect(compile(sql`select ${epochMs(sql`o.created_at`)}`).text).toBe(
      'select (extract(epoch from o.created_at) * 1000)::float8',
    )
  })
})
