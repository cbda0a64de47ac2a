import { execFileSync } from 'node:child_process'
import { randomUUID } from 'node:crypto'
import { XMLParser } from 'fast-xml-parser'
import sharp from 'sharp'
import { Temporal } from 'temporal-polyfill'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import type { Play, Schedule } from '../../src/contract/index.ts'
import { playsOfSlot, slotNumberAt, slotStartEpochMs } from '../../src/domain/index.ts'
import { demoCatalogue } from '../../src/server/catalogue/demo-catalogue.ts'
import { importCatalogue } from '../../src/server/catalogue/service.ts'
import { PROJECT_ROOT } from '../../src/server/main.ts'
import { sql } from '../../src/server/platform/db/sql.ts'
import { createLogger } from '../../src/server/platform/log.ts'
import {
  BACKENDS,
  boughtOrder,
  type Client,
  type ContentSource,
  client,
  daySlots,
  freshDataDir,
  generateContent,
  LIVE,
  startTestServer,
  type TestServer,
} from './helpers.ts'

type XmlElement = { name: string; attributes: Record<string, string>; children: XmlElement[] }

/** The document as elements in their order (fast-xml-parser's preserveOrder form, made readable). */
function parseSmil(xml: string): XmlElement {
  type Node = Record<string, unknown> & { ':@'?: Record<string, string> }
  const toElement = (node: Node): XmlElement | null => {
    const name = Object.keys(node).find((k) => k !== ':@')
    if (!name || name.startsWith('?') || name === '#text') return null
    return {
      name,
      attributes: node[':@'] ?? {},
      children: (node[name] as Node[]).map(toElement).filter((e) => e !== null),
    }
  }
  const nodes = new XMLParser({
    ignoreAttributes: false,
    attributeNamePrefix: '',
    preserveOrder: true,
  }).parse(xml) as Node[]
  const root = nodes.map(toElement).find((e) => e?.name === 'smil')
  if (!root) throw new Error('no <smil> root')
  return root
}

const only = (children: XmlElement[], name: string): XmlElement => {
  const found = children.filter((e) => e.name === name)
  expect(found, name).toHaveLength(1)
  return found[0] as XmlElement
}

// Api-v1 "Player": the token, the schedule of Confirmed orders, the proof of play.
const DEVICE = 'paris-opera-1'
const PARIS = 'Europe/Paris'
type Event = Parameters<typeof playsOfSlot>[0]

describe.each(BACKENDS)('the player API on %s', (backend) => {
  let server: TestServer
  let api: Client
  let content: { key: string; source: ContentSource }
  let token: string
  let event: Event
  let confirmed: { guid: string; slots: number[] }
  let failed: { guid: string; slots: number[] }
  /** The server's clock when set (the SMIL playlist's default window starts at the hour). */
  let clock: number | null = null
  const bearer = () => ({ authorization: `Bearer ${token}` })

  const buy = (slots: number[], card?: string) => boughtOrder(api, { slots, content, card })

  beforeAll(async () => {
    server = await startTestServer(backend, {
      env: { PUBLIC_BASE_URL: 'https://shop.example' },
      now: () => clock ?? Date.now(),
    })
    api = client(server.url)
    content = await generateContent(api)
    const linked = await server.deps.player.link(DEVICE)
    if (!linked.ok) throw new Error('link failed')
    token = linked.value.token
    event = (await api.get<Event>(`/spotlight/events/${LIVE}`)).body
    const ok = await buy(daySlots(2, 40, 2))
    expect(ok.state).toBe('Confirmed')
    confirmed = ok
    const refused = await buy(daySlots(2, 44, 1), '4000000000000341')
    expect(refused.state).toBe('Failed')
    failed = refused
  })
  afterAll(async () => {
    await server?.stop()
  })

  const dayWindow = () => {
    const from = slotStartEpochMs(event, PARIS, daySlots(2, 0, 1)[0] as number)
    return { fromEpochMs: from, toEpochMs: from + 24 * 3_600_000 }
  }
  const scheduleOf = (query: string, headers: Record<string, string> = bearer()) =>
    api.get<Schedule>(`/player/${DEVICE}/schedule${query}`, headers)

  it('refuses a call without a token, with a wrong one, and with another billboard’s: 401', async () => {
    const w = dayWindow()
    const q = `?fromEpochMs=${w.fromEpochMs}&toEpochMs=${w.toEpochMs}`
    expect((await scheduleOf(q, {})).status).toBe(401)
    expect((await scheduleOf(q, { authorization: 'Bearer nope' })).status).toBe(401)
    const other = await server.deps.player.link('paris-republique')
    if (!other.ok) throw new Error('link failed')
    const res = await scheduleOf(q, { authorization: `Bearer ${other.value.token}` })
    expect(res.status).toBe(401)
    expect(res.body).toMatchObject({ codes: ['player_token_invalid'] })
    const unknown = await api.get(`/player/no-such-billboard/schedule${q}`, bearer())
    expect(unknown.status).toBe(404)
  })

  it('schedules the plays of Confirmed orders only, with absolute URLs and the house card', async () => {
    const w = dayWindow()
    const res = await scheduleOf(`?fromEpochMs=${w.fromEpochMs}&toEpochMs=${w.toEpochMs}`)
    expect(res.status).toBe(200)
    expect(res.headers.get('cache-control')).toBe('no-store')
    const s = res.body
    expect(s).toMatchObject({
      deviceId: DEVICE,
      timeZoneId: PARIS,
      fromEpochMs: w.fromEpochMs,
      toEpochMs: w.toEpochMs,
      house: {
        eventSlug: LIVE,
        eventName: 'Share the Love',
        locale: 'fr',
        valueCentsPerSlot: 4000,
        currency: 'USD',
        shopUrl: `https://shop.example/${LIVE}?device=${DEVICE}`,
      },
    })
    // two slots of 4 plays each, 15 s, every 225 s; the Failed order's slot is absent
    const expected = confirmed.slots.flatMap((n) =>
      playsOfSlot(event, PARIS, n).map((p) => ({
        orderGuid: confirmed.guid,
        slotNumber: n,
        playIndex: p.playIndex,
        startEpochMs: p.startEpochMs,
        endEpochMs: p.endEpochMs,
      })),
    )
    expect(s.items.map(({ content: _, ...item }) => item)).toEqual(expected)
    expect(s.items.some((i) => i.orderGuid === failed.guid)).toBe(false)
    for (const item of s.items) {
      expect(item.endEpochMs - item.startEpochMs).toBe(15_000)
      expect(item.content).toMatchObject({ type: 'photo', durationSeconds: null })
      expect(item.content.url).toMatch(/^https:\/\/shop\.example\/api\/v1\/content\/files\//)
    }
  })

  it('takes the token as ?token= too, and checks the window', async () => {
    const w = dayWindow()
    const ok = await scheduleOf(
      `?fromEpochMs=${w.fromEpochMs}&toEpochMs=${w.toEpochMs}&token=${token}`,
      {},
    )
    expect(ok.status).toBe(200)
    expect(ok.body.items).toHaveLength(8)
    const long = await scheduleOf(
      `?fromEpochMs=${w.fromEpochMs}&toEpochMs=${w.fromEpochMs + 49 * 3_600_000}`,
    )
    expect(long.status).toBe(400)
    expect(long.body).toMatchObject({ codes: ['window_too_long'] })
    const reversed = await scheduleOf(`?fromEpochMs=${w.toEpochMs}&toEpochMs=${w.fromEpochMs}`)
    expect(reversed.status).toBe(400)
  })

  const smilOf = (query: string, init: RequestInit = {}) =>
    fetch(`${server.url}/api/v1/player/${DEVICE}/schedule.smil?token=${token}${query}`, init)

  it('serves SMIL 3.0 that signage players play on time: one par, a wallclock seq per play, one media element each', async () => {
    const w = dayWindow()
    const res = await smilOf(`&fromEpochMs=${w.fromEpochMs}&toEpochMs=${w.toEpochMs}`)
    expect(res.status).toBe(200)
    expect(res.headers.get('content-type')).toMatch(/^application\/smil\+xml/)
    const xml = await res.text()
    const smil = parseSmil(xml)
    // W3C SMIL 3.0 Tiny profile: the SMIL 3.0 namespace, baseProfile, head and body
    expect(smil.attributes).toMatchObject({
      xmlns: 'http://www.w3.org/ns/SMIL',
      version: '3.0',
      baseProfile: 'Tiny',
    })
    const head = only(smil.children, 'head')
    const layout = only(head.children, 'layout')
    expect(only(layout.children, 'root-layout').attributes).toMatchObject({
      width: '1400',
      height: '400',
    })
    // Refresh with a capital R (garlic), after every other meta (signageOS: the last one wins)
    const metas = head.children.filter((e) => e.name === 'meta')
    expect(metas.at(-1)?.attributes).toEqual({ 'http-equiv': 'Refresh', content: '300' })
    expect(metas.slice(0, -1).every((m) => !('http-equiv' in m.attributes))).toBe(true)

    // body → one par, indefinite → only seqs, each with begin and end → one img or video with dur
    const body = only(smil.children, 'body')
    expect(body.children.map((e) => e.name)).toEqual(['par'])
    const par = only(body.children, 'par')
    expect(par.attributes).toEqual({ dur: 'indefinite' })
    expect(new Set(par.children.map((e) => e.name))).toEqual(new Set(['seq']))
    const wall = /^wallclock\((\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d)\)$/
    const local = (value: string | undefined) => {
      const time = wall.exec(value ?? '')?.[1]
      expect(time, value).toBeDefined()
      return Temporal.PlainDateTime.from(time as string).toZonedDateTime(PARIS).epochMilliseconds
    }
    let at = w.fromEpochMs
    const shown: number[] = []
    for (const seq of par.children) {
      expect(Object.keys(seq.attributes).sort()).toEqual(['begin', 'end'])
      const begin = local(seq.attributes.begin)
      const end = local(seq.attributes.end)
      // in time order, end to end: the window is covered with no gap
      expect(begin).toBe(at)
      at = end
      expect(seq.children).toHaveLength(1)
      const media = seq.children[0] as XmlElement
      expect(media.name).toBe('img') // photo shouts and the house card
      expect(media.attributes).not.toHaveProperty('begin')
      expect(media.attributes).not.toHaveProperty('end')
      expect(media.attributes.dur).toBe(`${(end - begin) / 1000}s`)
      expect(media.attributes.src).toMatch(/^https:\/\/shop\.example\//)
      if (media.attributes.src?.includes('/house-card.png')) {
        expect(end - begin).toBeLessThanOrEqual(60_000)
      } else shown.push(begin)
    }
    expect(at).toBe(w.toEpochMs)
    const schedule = await scheduleOf(`?fromEpochMs=${w.fromEpochMs}&toEpochMs=${w.toEpochMs}`)
    expect(shown).toEqual(schedule.body.items.map((i) => i.startEpochMs))
    expect(shown).toHaveLength(8)
    // a day of house card in pieces of a minute at most, cut at whole minutes
    expect(par.children.length).toBeGreaterThanOrEqual(24 * 60)
    // without a token: 401, like the JSON schedule
    const anonymous = await fetch(`${server.url}/api/v1/player/${DEVICE}/schedule.smil`)
    expect(anonymous.status).toBe(401)
  })

  it('keeps the SMIL playlist’s ETag and Last-Modified while it is unchanged, answers HEAD and 304', async () => {
    const hour = Math.floor(Date.now() / 3_600_000) * 3_600_000
    clock = hour + 10 * 60_000
    const first = await smilOf('')
    const etag = first.headers.get('etag') ?? ''
    const lastModified = first.headers.get('last-modified') ?? ''
    expect(etag).toMatch(/^"[\w-]{20,}"$/)
    expect(new Date(lastModified).toUTCString()).toBe(lastModified)
    const text = await first.text()
    expect(first.headers.get('content-length')).toBe(String(Buffer.byteLength(text)))

    // later in the same hour: the same document, the same validators
    clock = hour + 50 * 60_000
    const again = await smilOf('')
    expect(await again.text()).toBe(text)
    expect([again.headers.get('etag'), again.headers.get('last-modified')]).toEqual([
      etag,
      lastModified,
    ])

    const head = await smilOf('', { method: 'HEAD' })
    expect(head.status).toBe(200)
    expect(await head.text()).toBe('')
    expect(head.headers.get('etag')).toBe(etag)
    expect(head.headers.get('last-modified')).toBe(lastModified)
    expect(head.headers.get('content-length')).toBe(String(Buffer.byteLength(text)))

    // conditional requests as players send them (garlic-player: its stored ETag without quotes)
    const conditional: Record<string, string>[] = [
      { 'if-none-match': etag },
      { 'if-none-match': etag.replaceAll('"', '') },
      { 'if-modified-since': lastModified },
    ]
    for (const headers of conditional) {
      const res = await smilOf('', { headers })
      expect(res.status, JSON.stringify(headers)).toBe(304)
      expect(res.headers.get('etag')).toBe(etag)
    }
    expect((await smilOf('', { headers: { 'if-none-match': '"other"' } })).status).toBe(200)

    // a shout sold in the window changes the document: a new ETag, a later Last-Modified
    clock = null
    const files = (xml: string) => xml.split('/api/v1/content/files/').length - 1
    const before = files(await (await smilOf('')).text())
    const soon = slotNumberAt(event, PARIS, Date.now() + 6 * 3_600_000)
    if (soon === null) throw new Error('the live event has no slot in 6 hours')
    const sold = await buy([soon])
    expect(sold.state).toBe('Confirmed')
    const changed = await smilOf('')
    expect(changed.headers.get('etag')).not.toBe(etag)
    expect(Date.parse(changed.headers.get('last-modified') ?? '')).toBeGreaterThan(
      Date.parse(lastModified),
    )
    expect(files(await changed.text())).toBe(before + 4)
    expect((await smilOf('', { headers: { 'if-none-match': etag } })).status).toBe(200)
  })

  it('draws the house card as a PNG at the billboard size', async () => {
    const res = await fetch(`${server.url}/api/v1/player/${DEVICE}/house-card.png`)
    expect(res.status).toBe(200)
    expect(res.headers.get('content-type')).toBe('image/png')
    const meta = await sharp(Buffer.from(await res.arrayBuffer())).metadata()
    expect([meta.format, meta.width, meta.height]).toEqual(['png', 1400, 400])
    expect((await fetch(`${server.url}/api/v1/player/nowhere/house-card.png`)).status).toBe(404)
  })

  const playOf = (guid: string, slotNumber: number, playIndex: number): Play => {
    const p = playsOfSlot(event, PARIS, slotNumber)[playIndex] as { startEpochMs: number }
    return {
      playId: randomUUID(),
      orderGuid: guid,
      slotNumber,
      playIndex,
      startedAtEpochMs: p.startEpochMs + 40,
      endedAtEpochMs: p.startEpochMs + 15_020,
    }
  }

  it('refuses a bad batch: not UUIDs, more than 500 plays', async () => {
    const path = `/player/${DEVICE}/plays`
    const bad = await api.post(
      path,
      { plays: [{ ...playOf(confirmed.guid, 1, 0), playId: 'x' }] },
      bearer(),
    )
    expect(bad.status).toBe(400)
    const slot = confirmed.slots[0] as number
    const many = Array.from({ length: 501 }, () => playOf(confirmed.guid, slot, 3))
    const tooMany = await api.post(path, { plays: many }, bearer())
    expect(tooMany.status).toBe(400)
    expect(JSON.stringify(tooMany.body)).toContain('at most 500')
  })

  it('a new link revokes the old token: 401 with the rotated one', async () => {
    const w = dayWindow()
    const q = `?fromEpochMs=${w.fromEpochMs}&toEpochMs=${w.toEpochMs}`
    const old = token
    const linked = await server.deps.player.link(DEVICE)
    if (!linked.ok) throw new Error('link failed')
    token = linked.value.token
    expect((await scheduleOf(q, { authorization: `Bearer ${old}` })).status).toBe(401)
    expect((await scheduleOf(q)).status).toBe(200)
    // only hashes are stored, one live per billboard
    const rows = await server.deps.database.query(sql<{ hash: string; live: boolean }>`
      select token_hash as hash, revoked_at is null as live from player_tokens
      where device_id = ${DEVICE}`)
    expect(rows.filter((r) => r.live)).toHaveLength(1)
    expect(rows.every((r) => r.hash !== token && /^[0-9a-f]{64}$/.test(r.hash))).toBe(true)
  })

  it('the import refuses an event whose plays do not fit its slot, by JSON path', async () => {
    const catalogue = demoCatalogue(Date.now()) as { events: Record<string, unknown>[] }
    ;(catalogue.events[0] as Record<string, unknown>).playsPerSlot = 61
    const result = await importCatalogue(server.deps.database, catalogue)
    expect(result.success).toBe(false)
    if (result.success) return
    expect(result.errors).toEqual([
      '$.events[0].secondsPerShout: secondsPerShout × playsPerSlot (15 × 61 s) must fit in the slot (900 s)',
    ])
    const live = await api.get<{ playsPerSlot: number }>(`/spotlight/events/${LIVE}`)
    expect(live.body.playsPerSlot).toBe(4)
  })
})

describe('player tokens in the logs', () => {
  it('never writes a token to a log line, from the header or the query, on success or failure', async () => {
    const lines: string[] = []
    const server = await startTestServer('pglite', {
      log: createLogger('debug', {}, (line) => lines.push(line)),
    })
    try {
      const linked = await server.deps.player.link(DEVICE)
      if (!linked.ok) throw new Error('link failed')
      const token = linked.value.token
      const api = client(server.url)
      await api.get(`/player/${DEVICE}/schedule?token=${token}`)
      await api.get(`/player/${DEVICE}/schedule.smil?token=${token}&fromEpochMs=oops`)
      await api.get(`/player/${DEVICE}/schedule`, { authorization: `Bearer ${token}` })
      await api.post(`/player/${DEVICE}/plays?token=${token}`, { plays: 'no' })
      await api.get(`/player/${DEVICE}/schedule?token=${token}x`)
      expect(lines.filter((l) => l.includes('"request"')).length).toBeGreaterThanOrEqual(5)
      expect(lines.filter((l) => l.includes(token))).toEqual([])
    } finally {
      await server.stop()
    }
  })
})

describe('npm run player-link', () => {
  it('prints the player URL with a new token as its last line; the old one stops working', async () => {
    const dataDir = await freshDataDir()
    const first = await startTestServer('pglite', { dataDir })
    await first.close() // the embedded database: the link is made with the server stopped
    const env = { ...process.env, DATA_DIR: dataDir, PORT: '4321', LOG_LEVEL: 'error' }
    delete (env as Record<string, string | undefined>).PUBLIC_BASE_URL
    delete (env as Record<string, string | undefined>).DATABASE_URL
    const run = () =>
      execFileSync(process.execPath, ['--import', 'tsx', 'src/server/player/link-cli.ts', DEVICE], {
        cwd: PROJECT_ROOT,
        env,
      })
        .toString()
        .trim()
        .split('\n')
        .at(-1) as string
    const oldUrl = new URL(run())
    const newUrl = new URL(run())
    expect(newUrl.origin).toBe('http://localhost:4321')
    expect(newUrl.pathname).toBe(`/play/${DEVICE}`)
    const newToken = newUrl.searchParams.get('token') as string
    expect(newToken.length).toBeGreaterThanOrEqual(22) // ≥ 128 bits in base64url
    const server = await startTestServer('pglite', { dataDir })
    try {
      const api = client(server.url)
      const path = `/player/${DEVICE}/schedule`
      const old = await api.get(path, {
        authorization: `Bearer ${oldUrl.searchParams.get('token')}`,
      })
      expect(old.status).toBe(401)
      expect((await api.get(path, { authorization: `Bearer ${newToken}` })).status).toBe(200)
    } finally {
      await server.stop()
    }
  }, 60_000)
})
