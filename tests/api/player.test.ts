import { execFileSync } from 'node:child_process'
import { randomUUID } from 'node:crypto'
import sharp from 'sharp'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { type Play, player } from '../../src/contract/index.ts'
import { englishOf } from '../../src/contract/problems.ts'
import { playsOfSlot, slotStartEpochMs } from '../../src/domain/index.ts'
import { demoCatalogue } from '../../src/server/catalogue/demo-catalogue.ts'
import { importCatalogue } from '../../src/server/catalogue/service.ts'
import { sql } from '../../src/server/platform/db/sql.ts'
import { createLogger } from '../../src/server/platform/log.ts'
import { PROJECT_ROOT } from '../../src/server/platform/paths.ts'
import {
  answerOf,
  BACKENDS,
  boughtOrder,
  type Client,
  type ContentSource,
  client,
  daySlots,
  eventOf,
  freshDataDir,
  generateContent,
  LIVE,
  startTestServer,
  type TestServer,
} from './helpers.ts'

// Api-v1 "Player": the token, the schedule of Confirmed orders, the proof of play.
const DEVICE = 'paris-opera-1'
const PARIS = 'Europe/Paris'

describe.each(BACKENDS)('the player API on %s', (backend) => {
  let server: TestServer
  let api: Client
  let content: { key: string; source: ContentSource }
  let token: string
  let event: Awaited<ReturnType<typeof eventOf>>
  let confirmed: { guid: string; slots: number[] }
  let failed: { guid: string; slots: number[] }
  const bearer = () => ({ authorization: `Bearer ${token}` })

  const buy = (slots: number[], card?: string) => boughtOrder(api, { slots, content, card })

  beforeAll(async () => {
    server = await startTestServer(backend, { env: { PUBLIC_BASE_URL: 'https://shop.example' } })
    api = client(server.url)
    content = await generateContent(api)
    const linked = await server.deps.player.link(DEVICE)
    if (!linked.ok) throw new Error('link failed')
    token = linked.value.token
    event = await eventOf(api, LIVE)
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
    api.get(`/player/${DEVICE}/schedule${query}`, headers)

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
    expect(res.headers.get('cache-control')).toBe('no-store')
    const s = answerOf(player.schedule, res)
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
        currency: 'EUR',
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
    expect(answerOf(player.schedule, ok).items).toHaveLength(8)
    const long = await scheduleOf(
      `?fromEpochMs=${w.fromEpochMs}&toEpochMs=${w.fromEpochMs + 49 * 3_600_000}`,
    )
    expect(long.status).toBe(400)
    expect(long.body).toMatchObject({ codes: ['window_too_long'] })
    const reversed = await scheduleOf(`?fromEpochMs=${w.toEpochMs}&toEpochMs=${w.fromEpochMs}`)
    expect(reversed.status).toBe(400)
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
    expect(result.problems.map(englishOf)).toEqual([
      '$.events[0].secondsPerShout: secondsPerShout × playsPerSlot (15 × 61 s) must fit in the slot (900 s)',
    ])
    expect(result.problems.map((p) => p.code)).toEqual(['catalogue_plays_overflow'])
    expect((await eventOf(api, LIVE)).playsPerSlot).toBe(4)
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
