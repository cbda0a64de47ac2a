import { spawnSync } from 'node:child_process'
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { content, spotlight } from '../../src/contract/index.ts'
import { englishOf } from '../../src/contract/problems.ts'
import { demoCatalogue } from '../../src/server/catalogue/demo-catalogue.ts'
import { checkCatalogue, importCatalogue } from '../../src/server/catalogue/service.ts'
import { sql } from '../../src/server/platform/db/sql.ts'
import { PROJECT_ROOT } from '../../src/server/platform/paths.ts'
import {
  answerOf,
  type Client,
  client,
  freshDataDir,
  startTestServer,
  type TestServer,
} from './helpers.ts'

// And docs/catalogue-format.md: `npm run import -- FILE.json` validates the whole file first,
// lists every problem by JSON path, writes nothing on error, and upserts by id.

const catalogue = {
  devices: [
    {
      deviceId: 'lyon-bellecour',
      location: 'Place Bellecour, south side',
      city: 'Lyon',
      country: 'France',
      timeZoneId: 'Europe/Paris',
      coordinates: { lat: 45.7578, lng: 4.832 },
      trafficDirection: 'North',
      imageUrl: '/catalogue/lyon-bellecour.jpg',
      contentWidth: 1400,
      contentHeight: 400,
    },
  ],
  templates: [
    {
      id: 'plain',
      name: 'Plain',
      types: ['photo'],
      widthPx: 1400,
      heightPx: 400,
      previewImageUrl: '/catalogue/plain.png',
      html: '<div>{{recipientName}}: {{multilineMessage}} <img src="{{photoUrl}}"/> {{ buyerName }}</div>',
    },
  ],
  events: [
    {
      slug: 'fete-des-lumieres',
      name: 'Fête des Lumières',
      startDateHourLocalInclusive: '2030-12-05_00',
      endDateHourLocalExclusive: '2030-12-09_00',
      slotWidthMS: 900000,
      devices: [{ deviceId: 'lyon-bellecour' }],
      templates: ['plain'],
    },
  ],
  promos: [
    {
      promoCode: 'LUMIERE',
      eventSlug: 'fete-des-lumieres',
      percentOffTotal: 15,
      oncePerCustomer: true,
    },
  ],
}

function runImport(file: string, dataDir: string) {
  return spawnSync(
    process.execPath,
    ['--import', 'tsx', 'src/server/catalogue/import-cli.ts', file],
    {
      cwd: PROJECT_ROOT,
      env: { ...process.env, DATA_DIR: dataDir, DATABASE_URL: '' },
      encoding: 'utf8',
    },
  )
}

describe('npm run import', () => {
  let dataDir: string
  let dir: string
  let server: TestServer | null = null

  beforeAll(async () => {
    dataDir = await freshDataDir()
    dir = mkdtempSync(join(tmpdir(), 'shouts-catalogue-'))
  })
  afterAll(async () => {
    await server?.stop()
    rmSync(dir, { recursive: true, force: true })
  })

  it('rejects a file that breaks rules, listing every problem by JSON path, and writes nothing', () => {
    const broken = structuredClone(catalogue) as Record<string, unknown[]>
    const event = (broken.events as Record<string, unknown>[])[0] as Record<string, unknown>
    event.endDateHourLocalExclusive = '2030-12-01_00'
    event.slotWidthMS = 7 * 60 * 1000 + 1
    event.templates = ['plain', 'missing-template']
    ;(broken.devices as Record<string, unknown>[])[0] = {
      ...(catalogue.devices[0] as object),
      timeZoneId: 'Mars/Olympus',
      color: 'red',
    }
    ;(broken.templates as Record<string, unknown>[])[0] = {
      ...(catalogue.templates[0] as object),
      html: '<div>{{recipientName}} {{secretToken}}</div>',
    }
    broken.promos = [
      {
        promoCode: 'BOTH',
        eventSlug: 'fete-des-lumieres',
        percentOffTotal: 10,
        centsOffTotal: 100,
      },
      { promoCode: 'ORPHAN', eventSlug: 'no-such-event', centsOffTotal: 100 },
      { promoCode: 'orphan', eventSlug: 'fete-des-lumieres', percentOffTotal: 101 },
    ]
    const file = join(dir, 'broken.json')
    writeFileSync(file, JSON.stringify(broken))
    const result = runImport(file, dataDir)
    expect(result.status).toBe(1)
    for (const path of [
      '$.devices[0].timeZoneId',
      '$.devices[0].color: is not an allowed field',
      '$.templates[0].html: uses the unknown placeholder {{secretToken}}',
      '$.events[0].slotWidthMS',
      '$.promos[0]: must have exactly one of centsOffTotal or percentOffTotal',
      '$.promos[2].percentOffTotal',
    ]) {
      expect(result.stderr).toContain(path)
    }
    // shape first, then references: the references are checked once the shape is right
    const fixedShape = structuredClone(catalogue) as typeof catalogue & Record<string, unknown>
    ;(fixedShape.events[0] as Record<string, unknown>).templates = ['plain', 'missing-template']
    ;(fixedShape.events[0] as Record<string, unknown>).devices = [{ deviceId: 'nowhere' }]
    fixedShape.promos = [
      {
        promoCode: 'LUMIERE',
        eventSlug: 'no-such-event',
        percentOffTotal: 5,
        oncePerCustomer: false,
      },
      {
        promoCode: 'lumiere',
        eventSlug: 'fete-des-lumieres',
        percentOffTotal: 5,
        oncePerCustomer: false,
      },
    ]
    const check = checkCatalogue(fixedShape)
    expect(check.success).toBe(false)
    expect(check.success ? [] : check.problems.map(englishOf)).toEqual([
      "$.promos[1].promoCode: duplicate promoCode 'lumiere' (first at $.promos[0].promoCode)",
      "$.events[0].devices[0].deviceId: unknown device 'nowhere'",
      "$.events[0].templates[1]: unknown template 'missing-template'",
      "$.promos[0].eventSlug: unknown event 'no-such-event'",
    ])
    expect(check.success ? [] : check.problems.map((p) => p.code)).toEqual([
      'catalogue_duplicate',
      'catalogue_device_unknown',
      'catalogue_template_unknown',
      'catalogue_event_unknown',
    ])
    const endBeforeStart = structuredClone(catalogue)
    ;(endBeforeStart.events[0] as Record<string, unknown>).endDateHourLocalExclusive =
      '2030-12-01_00'
    const order = checkCatalogue(endBeforeStart)
    expect(order.success ? [] : order.problems.map(englishOf)).toEqual([
      '$.events[0].endDateHourLocalExclusive: must be after startDateHourLocalInclusive',
    ])
    const badDate = structuredClone(catalogue)
    ;(badDate.events[0] as Record<string, unknown>).startDateHourLocalInclusive = '2030-02-30_00'
    expect(checkCatalogue(badDate).success).toBe(false)
  })

  it('refuses templates the renderer cannot draw, each error at its JSON path', () => {
    const broken = structuredClone(catalogue) as typeof catalogue
    const templates = broken.templates as Record<string, unknown>[]
    templates[0] = {
      ...(catalogue.templates[0] as object),
      html: '<div style="position: fixed">{{recipientName}}</div><script>alert(1)</script>',
    }
    templates.push({
      ...(catalogue.templates[0] as object),
      id: 'second',
      html: '<div>{{buyerName}} <p>{{photoUrl}}</p></div>',
    })
    templates.push({
      ...(catalogue.templates[0] as object),
      id: 'third',
      html: '<div>{{buyerName}} 1 < 2</div>',
    })
    const check = checkCatalogue(broken)
    expect(check.success).toBe(false)
    const errors = check.success ? [] : check.problems.map(englishOf)
    const first = errors.filter((e: string) => e.startsWith('$.templates[0].html: '))
    const second = errors.filter((e: string) => e.startsWith('$.templates[1].html: '))
    expect(first.length).toBeGreaterThanOrEqual(1)
    expect(first.join('\n')).toMatch(/position|script/)
    expect(second.join('\n')).toContain('{{photoUrl}} can only be an img src')
    expect(
      errors.filter((e: string) => e.startsWith('$.templates[2].html: ')).join('\n'),
    ).toContain('write &lt; for a literal')
    // The demo catalogue's own templates all render: the check is not a blanket refusal.
    expect(checkCatalogue(demoCatalogue(Date.now())).success).toBe(true)
  })

  it('imports a valid file, and an edited file updates its rows', () => {
    const file = join(dir, 'catalogue.json')
    writeFileSync(file, JSON.stringify(catalogue))
    const first = runImport(file, dataDir)
    expect(first.stderr).toBe('')
    expect(first.status).toBe(0)
    expect(first.stdout).toContain(
      'imported 1 device(s), 1 template(s), 1 event(s), 1 promo code(s)',
    )
    // an edited file updates the rows
    const edited = structuredClone(catalogue)
    ;(edited.devices[0] as Record<string, unknown>).location = 'Place Bellecour, north side'
    ;(edited.events[0] as Record<string, unknown>).valueCentsPerSlot = 3000
    // a template named in the shop's other languages
    ;(edited.templates[0] as Record<string, unknown>).names = { fr: 'Sobre', de: 'Schlicht' }
    writeFileSync(file, JSON.stringify(edited))
    expect(runImport(file, dataDir).status).toBe(0)
    expect(runImport(join(dir, 'missing.json'), dataDir).status).toBe(1)
  })

  it('serves what was imported, with the defaults of the format, and no demo catalogue on top', async () => {
    server = await startTestServer('pglite', { dataDir })
    const api: Client = client(server.url)
    const event = answerOf(spotlight.event, await api.get('/spotlight/events/fete-des-lumieres'))
    expect(event).toMatchObject({
      name: 'Fête des Lumières',
      valueCentsPerSlot: 3000,
      currency: 'USD',
      branded: false,
      allowedContentGeneratorTypes: ['photo'],
    })
    const { devices } = answerOf(
      spotlight.devices,
      await api.get('/spotlight/events/fete-des-lumieres/devices'),
    )
    expect(devices).toEqual([
      expect.objectContaining({
        deviceId: 'lyon-bellecour',
        location: 'Place Bellecour, north side',
        screens: 1,
        soldOut: false,
        stateAbbr: null,
        streetViewUrl: null,
        viewingAreaCoordinates: [],
      }),
    ])
    const { generators } = answerOf(
      content.generators,
      await api.get('/content/generators?types=photo&widthPx=1400&heightPx=400'),
    )
    expect(generators).toEqual([
      expect.objectContaining({
        id: 'plain',
        name: 'Plain',
        names: { fr: 'Sobre', de: 'Schlicht' },
      }),
    ])
    expect((await api.get('/spotlight/events/share-the-love')).status).toBe(404)
    // nothing of the rejected file was written
    expect((await api.get('/spotlight/promos/code/BOTH?eventSlug=fete-des-lumieres')).status).toBe(
      404,
    )
    expect(
      answerOf(
        spotlight.promo,
        await api.get('/spotlight/promos/code/lumiere?eventSlug=fete-des-lumieres'),
      ),
    ).toEqual({
      promoCode: 'LUMIERE',
      percentOffTotal: 15,
    })
    // An import while the server runs goes through the server's own database thread.
    const moved = structuredClone(catalogue)
    ;(moved.devices[0] as Record<string, unknown>).location = 'Place Bellecour, east side'
    writeFileSync(join(dir, 'moved.json'), JSON.stringify(moved))
    const beside = runImport(join(dir, 'moved.json'), server.dataDir)
    expect(beside.stderr).toBe('')
    expect(beside.status).toBe(0)
    const [row] = await server.deps.database.query(
      sql<{ location: string }>`select location from devices where device_id = 'lyon-bellecour'`,
    )
    expect(row?.location).toBe('Place Bellecour, east side')
  })

  it('ships a demo catalogue that passes its own rules', async () => {
    const check = checkCatalogue(demoCatalogue(Date.now()))
    expect(check.success ? [] : check.problems.map(englishOf)).toEqual([])
    const d = await freshDataDir()
    const s = await startTestServer('pglite', { dataDir: d, demoCatalogue: false })
    try {
      const once = await importCatalogue(s.deps.database, demoCatalogue(Date.now()))
      const twice = await importCatalogue(s.deps.database, demoCatalogue(Date.now()))
      expect(once).toEqual(twice)
      const rows = await s.deps.database.query(
        sql<{ n: number }>`select count(*) as n from event_devices`,
      )
      expect(Number(rows[0]?.n)).toBeGreaterThan(9)
    } finally {
      await s.stop()
    }
  })
})
