import { describe, expect, it } from 'vitest'
import { columnMap } from './columns.ts'
import { compile, sql } from './sql.ts'

type Place = {
  placeId: string
  name: string
  seats: number | null
  tags: string[]
  at: { lat: number; lng: number }
}

const PLACES = columnMap<Place>('places', {
  placeId: 'place_id',
  name: 'name',
  seats: { column: 'seats', cast: 'int' },
  tags: { column: 'tags', json: true },
  at: { lat: 'lat', lng: 'lng' },
})

const place: Place = {
  placeId: 'p1',
  name: 'Opera',
  seats: null,
  tags: ['a'],
  at: { lat: 1, lng: 2 },
}

describe('a column map', () => {
  it('writes the select list with each column named as its field', () => {
    expect(compile(sql`select ${PLACES.select({ from: 'p' })} from places p`).text).toBe(
      'select "p"."place_id" as "placeId", "p"."name" as "name", "p"."seats" as "seats", ' +
        `"p"."tags" as "tags", json_build_object('lat', "p"."lat", 'lng', "p"."lng") as "at" ` +
        'from places p',
    )
    expect(compile(PLACES.select({ fields: ['name'] })).text).toBe('"name" as "name"')
  })

  it('writes an upsert from the same declaration, values as parameters', () => {
    const { text, values } = compile(PLACES.upsert(place, ['placeId'], { updated_at: sql`now()` }))
    expect(text.replace(/\s+/g, ' ')).toBe(
      'insert into "places" ("place_id", "name", "seats", "tags", "lat", "lng", "updated_at") ' +
        'values ($1, $2, $3::int, $4::jsonb, $5, $6, now()) on conflict ("place_id") do update set ' +
        '"name" = excluded."name", "seats" = excluded."seats", "tags" = excluded."tags", ' +
        '"lat" = excluded."lat", "lng" = excluded."lng", "updated_at" = excluded."updated_at"',
    )
    expect(values).toEqual(['p1', 'Opera', null, '["a"]', 1, 2])
  })

  it('reads a timestamptz as epoch milliseconds and sends them as its ISO text', () => {
    const VISITS = columnMap<{ placeId: string; atMs: number; seenMs: number | null }>('visits', {
      placeId: 'place_id',
      atMs: { column: 'at', epochMs: true },
      seenMs: { column: 'seen_at', epochMs: true, floor: true },
    })
    expect(compile(VISITS.select({ from: 'v', fields: ['atMs', 'seenMs'] })).text).toBe(
      '(extract(epoch from "v"."at") * 1000)::float8 as "atMs", ' +
        'floor((extract(epoch from "v"."seen_at") * 1000)::float8) as "seenMs"',
    )
    const { text, values } = compile(VISITS.insert({ placeId: 'p1', atMs: 0, seenMs: null }))
    expect(text).toBe(
      '"visits" ("place_id", "at", "seen_at") values ($1, $2::timestamptz, $3::timestamptz)',
    )
    expect(values).toEqual(['p1', '1970-01-01T00:00:00.000Z', null])
  })

  it('refuses a name that is not a plain identifier', () => {
    const bad = columnMap<{ x: string }>('t', { x: 'x"; drop table t; --' })
    expect(() => bad.select()).toThrow(/not an SQL identifier/)
  })
})
