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

  it('refuses a name that is not a plain identifier', () => {
    const bad = columnMap<{ x: string }>('t', { x: 'x"; drop table t; --' })
    expect(() => bad.select()).toThrow(/not an SQL identifier/)
  })
})
