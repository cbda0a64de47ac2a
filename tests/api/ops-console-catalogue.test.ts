import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { DeviceSchema } from '../../src/contract/catalogue.ts'
import { API_BASE, pathOf } from '../../src/contract/endpoint.ts'
import { spotlight } from '../../src/contract/index.ts'
import type { CatalogueApplied } from '../../src/contract/ops/catalogue.ts'
import { MAX_CATALOGUE_BYTES, opsCatalogue } from '../../src/contract/ops/catalogue.ts'
import { DEVICES } from '../../src/server/catalogue/columns.ts'
import { demoCatalogue } from '../../src/server/catalogue/demo-catalogue.ts'
import { sql } from '../../src/server/platform/db/sql.ts'
import {
  answerOf,
  BACKENDS,
  type Client,
  client,
  startTestServer,
  type TestServer,
} from './helpers.ts'
import { type SignedIn, signedInOperator } from './ops-helpers.ts'

// The console's catalogue upload: the checks of `npm run import` by JSON path, a preview of
// what a clean file adds and changes, and the apply call that imports exactly the previewed file.

type Catalogue = {
  devices: Record<string, unknown>[]
  templates: Record<string, unknown>[]
  events: Record<string, unknown>[]
  promos: Record<string, unknown>[]
}

describe.each(BACKENDS)('the console catalogue upload on %s', (backend) => {
  let server: TestServer
  let api: Client
  let admin: SignedIn
  const clock = Date.now()
  const demo = () => structuredClone(demoCatalogue(clock)) as unknown as Catalogue

  beforeAll(async () => {
    server = await startTestServer(backend, { now: () => clock })
    api = client(server.url)
    admin = await signedInOperator(server, 'admin')
  })
  afterAll(async () => {
    await server?.stop()
  })

  const preview = async (text: string) =>
    answerOf(
      opsCatalogue.cataloguePreview,
      await admin.api.post('/ops/catalogue/preview', { text }),
    )
  const apply = (text: string, sha256: string) =>
    admin.api.post<CatalogueApplied & { codes?: string[] }>('/ops/catalogue/apply', {
      text,
      sha256,
    })

  it('finds the shop’s own demo catalogue unchanged (an import would change nothing)', async () => {
    const file = demo()
    const answer = await preview(JSON.stringify(file, null, 2))
    expect(answer.problems).toEqual([])
    expect(answer.changes?.events).toEqual({
      added: [],
      changed: [],
      unchanged: file.events.map((e) => e.slug),
    })
    expect(answer.changes?.devices.changed).toEqual([])
    expect(answer.changes?.templates.changed).toEqual([])
    expect(answer.changes?.promos.changed).toEqual([])
    expect(answer.changes?.devices.unchanged).toHaveLength(file.devices.length)
  })

  it('lists every problem of a broken file by JSON path, and a text that is not JSON', async () => {
    const file = demo()
    ;(file.events[0] as Record<string, unknown>).slotWidthMS = 'soon'
    ;(file.devices[1] as Record<string, unknown>).colour = 'red'
    file.promos.push({ promoCode: 'NOWHERE', eventSlug: 'no-such-event', percentOffTotal: 5 })
    const shape = await preview(JSON.stringify(file))
    expect(shape.changes).toBeNull()
    expect(shape.problems).toEqual(
      expect.arrayContaining([
        expect.stringMatching(/^\$\.events\[0\]\.slotWidthMS: /),
        '$.devices[1].colour: is not an allowed field',
      ]),
    )
    // beside each problem its code and the values of its sentence, the JSON path as its field
    const colour = shape.problems.indexOf('$.devices[1].colour: is not an allowed field')
    expect(shape.codes[colour]).toBe('field_not_allowed')
    expect(shape.params[colour]).toEqual({ field: '$.devices[1].colour' })
    expect(shape.codes).toHaveLength(shape.problems.length)
    // references are checked once the shape is right
    const references = demo()
    references.promos.push({ promoCode: 'NOWHERE', eventSlug: 'no-such-event', percentOffTotal: 5 })
    const refs = await preview(JSON.stringify(references))
    expect(refs.problems).toEqual([
      `$.promos[${references.promos.length - 1}].eventSlug: unknown event 'no-such-event'`,
    ])
    expect(refs.codes).toEqual(['catalogue_event_unknown'])
    expect(refs.params).toEqual([
      { field: `$.promos[${references.promos.length - 1}].eventSlug`, eventSlug: 'no-such-event' },
    ])
    const notJson = await preview('{"events": [')
    expect(notJson.problems).toHaveLength(1)
    expect(notJson.problems[0]).toMatch(/^\$: is not JSON \(.+\)$/)
    expect(notJson.codes).toEqual(['catalogue_not_json'])
    expect(notJson.params).toEqual([{ field: '$', detail: expect.any(String) }])
  })

  it('previews what a clean file adds and changes, and applies exactly the previewed file', async () => {
    const file = demo()
    const device = file.devices[0] as Record<string, unknown>
    device.location = 'Moved across the square'
    file.events.push({
      slug: 'fete-des-lumieres',
      name: 'Fête des Lumières',
      startDateHourLocalInclusive: '2030-12-05_00',
      endDateHourLocalExclusive: '2030-12-09_00',
      slotWidthMS: 900000,
      devices: [{ deviceId: device.deviceId }],
      templates: [],
    })
    file.promos.push({ promoCode: 'LUMIERE', eventSlug: 'fete-des-lumieres', percentOffTotal: 15 })
    const text = JSON.stringify(file)
    const answer = await preview(text)
    expect(answer.problems).toEqual([])
    expect(answer.sha256).toMatch(/^[0-9a-f]{64}$/)
    expect(answer.changes?.events.added).toEqual(['fete-des-lumieres'])
    expect(answer.changes?.devices.changed).toEqual([device.deviceId])
    expect(answer.changes?.promos.added).toEqual(['LUMIERE'])
    expect(answer.changes?.templates.added).toEqual([])

    // another file than the one previewed is refused, and nothing is written
    const other = await apply(`${text} `, answer.sha256)
    expect(other.status).toBe(409)
    expect(other.body).toMatchObject({ codes: ['catalogue_not_previewed'] })
    expect((await api.get('/spotlight/events/fete-des-lumieres')).status).toBe(404)

    const applied = answerOf(opsCatalogue.catalogueApply, await apply(text, answer.sha256))
    expect(applied).toEqual({ sha256: answer.sha256, changes: answer.changes })
    const audit = await server.deps.database.query(sql<{ action: string; detail: unknown }>`
      select action, detail from audit_log where action = 'catalogue_import'`)
    expect(audit).toEqual([
      {
        action: 'catalogue_import',
        detail: expect.objectContaining({ sha256: answer.sha256 }),
      },
    ])
    expect((await api.get('/spotlight/events/fete-des-lumieres')).status).toBe(200)
    const again = await preview(text)
    expect(again.changes?.events.added).toEqual([])
    expect(again.changes?.events.changed).toEqual([])
    expect(again.changes?.devices.changed).toEqual([])
    expect(again.changes?.promos.unchanged).toContain('LUMIERE')
  })

  it('refuses to apply a file with problems (400, each by path) and a body above the limit (413)', async () => {
    const file = demo()
    ;(file.devices[0] as Record<string, unknown>).contentWidth = 0
    const text = JSON.stringify(file)
    const { sha256, problems } = await preview(text)
    expect(problems).toEqual([
      '$.devices[0].contentWidth: Invalid value: Expected >=1 but received 0',
    ])
    const refused = await apply(text, sha256)
    expect(refused.status).toBe(400)
    expect(refused.body).toMatchObject({ errors: problems, codes: ['catalogue_invalid'] })
    // the refusal's params carry each problem of the file by its code
    expect(refused.body).toMatchObject({
      params: [
        {
          problem: {
            code: 'field_invalid',
            params: {
              field: '$.devices[0].contentWidth',
              detail: 'Invalid value: Expected >=1 but received 0',
            },
          },
        },
      ],
    })
    const notJson = await apply('{"events": [', (await preview('{"events": [')).sha256)
    expect(notJson.status).toBe(400)
    expect(notJson.body).toMatchObject({ codes: ['catalogue_not_json'] })
    const huge = await admin.api.post('/ops/catalogue/preview', {
      text: 'x'.repeat(MAX_CATALOGUE_BYTES + 100 * 1024),
    })
    expect(huge.status).toBe(413)
  })

  it('shows shoppers a billboard with every field its catalogue line gives, and keeps each as given', async () => {
    // Every field the billboards' column map stores, each unlike the format's default: a field added
    // to the map has to be given here, and then has to reach the shop's answer and the stored row.
    const billboard = {
      deviceId: 'lyon-terreaux',
      location: 'Place des Terreaux, by the fountain',
      city: 'Lyon',
      stateAbbr: 'ARA',
      country: 'France',
      timeZoneId: 'Europe/Paris',
      coordinates: { lat: 45.7674, lng: 4.8336 },
      viewingAreaCoordinates: [
        { lat: 45.7676, lng: 4.8331 },
        { lat: 45.7671, lng: 4.8342 },
      ],
      trafficDirection: 'South West',
      screens: 2,
      imageUrl: '/catalogue/lyon-terreaux.jpg',
      screenCorners: [
        { x: 0.1, y: 0.2 },
        { x: 0.9, y: 0.2 },
        { x: 0.9, y: 0.8 },
        { x: 0.1, y: 0.8 },
      ],
      streetViewUrl: 'https://maps.example/terreaux',
      contentWidth: 1920,
      contentHeight: 1080,
      soldOut: true,
      impressionsPerPlay: 40,
      adCpmCents: 900,
      adCurrency: 'EUR',
    }
    expect(Object.keys(billboard).sort()).toEqual([...DEVICES.fields].sort())
    const slug = 'lumieres-terreaux'
    const file = demo()
    file.devices.push(billboard)
    file.events.push({
      slug,
      name: 'Lumières aux Terreaux',
      startDateHourLocalInclusive: '2030-12-05_00',
      endDateHourLocalExclusive: '2030-12-09_00',
      slotWidthMS: 900000,
      devices: [{ deviceId: billboard.deviceId, unavailable: true }],
      templates: [],
    })
    const text = JSON.stringify(file)
    const { sha256 } = await preview(text)
    answerOf(opsCatalogue.catalogueApply, await apply(text, sha256))

    const path = pathOf(spotlight.devices, { slug }).slice(API_BASE.length)
    const { devices } = answerOf(spotlight.devices, await api.get(path))
    const { unavailableForEvent, countryCode, ...shown } = devices[0] ?? {}
    expect(unavailableForEvent).toBe(true)
    // the country's code, worked out from its name
    expect(countryCode).toBe('FR')
    // the fields the contract gives a shopper, each as the file gave it
    const given = Object.keys(DeviceSchema.entries)
      .filter((field) => field !== 'unavailableForEvent' && field !== 'countryCode')
      .map((field) => [field, billboard[field as keyof typeof billboard]])
    expect(shown).toEqual(Object.fromEntries(given))
    // and the stored row is the file's line, those the shop does not show too
    expect((await preview(text)).changes?.devices.unchanged).toContain(billboard.deviceId)
  })
})
