import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import type { Heartbeat } from '../../src/contract/index.ts'
import { heartbeatsOf } from '../../src/server/player/repo.ts'
import { BACKENDS, type Client, client, startTestServer, type TestServer } from './helpers.ts'

// Api-v1 "Player": screens report their health. The web player beats every minute; a SMIL player's
// playlist fetches are its beats. The answer carries the server's time for the player's clock.
const DEVICE = 'paris-opera-1'
const SMIL_DEVICE = 'paris-republique'

describe.each(BACKENDS)('billboard heartbeats on %s', (backend) => {
  let server: TestServer
  let api: Client
  let token: string
  let smilToken: string
  let clock = Date.UTC(2027, 4, 7, 8, 0, 0)

  beforeAll(async () => {
    server = await startTestServer(backend, { now: () => clock })
    api = client(server.url)
    const linked = await server.deps.player.link(DEVICE)
    const smil = await server.deps.player.link(SMIL_DEVICE)
    if (!linked.ok || !smil.ok) throw new Error('link failed')
    token = linked.value.token
    smilToken = smil.value.token
  })
  afterAll(async () => {
    await server?.stop()
  })

  const beat = (overrides: Partial<Heartbeat> = {}): Heartbeat => ({
    sentAtEpochMs: clock - 300_000, // a player whose clock is 5 minutes slow
    showing: { kind: 'house' },
    clockCorrectionMs: 0,
    window: { fromEpochMs: clock, toEpochMs: clock + 86_400_000 },
    files: { cached: 3, failed: 1 },
    pendingPlays: 2,
    version: '1.2.3',
    screen: { widthPx: 1400, heightPx: 400 },
    ...overrides,
  })
  const stored = async (deviceId: string) =>
    (await heartbeatsOf(server.deps.database, [deviceId]))[0]

  it('answers a heartbeat with the server’s time and keeps it as the billboard’s last report', async () => {
    const sent = beat()
    const res = await api.post(`/player/${DEVICE}/heartbeat`, sent, {
      authorization: `Bearer ${token}`,
    })
    expect(res.status).toBe(200)
    expect(res.body).toEqual({ serverEpochMs: clock })
    expect(res.headers.get('cache-control')).toBe('no-store')
    expect(await stored(DEVICE)).toEqual({
      deviceId: DEVICE,
      source: 'web',
      seenAtEpochMs: clock,
      clockOffsetMs: 300_000,
      beat: sent,
      playerKind: 'web',
      playLogAtEpochMs: null,
    })
  })

  it('refuses a heartbeat without the billboard’s token, or one that says nothing sensible', async () => {
    const path = `/player/${DEVICE}/heartbeat`
    expect((await api.post(path, beat())).status).toBe(401)
    const smilsToken = { authorization: `Bearer ${smilToken}` }
    expect((await api.post(path, beat(), smilsToken)).status).toBe(401)
    const bad = await api.post(
      path,
      { ...beat(), pendingPlays: -1, extra: true },
      { authorization: `Bearer ${token}` },
    )
    expect(bad.status).toBe(400)
    expect(JSON.stringify(bad.body)).toContain('pendingPlays')
  })

  it('counts a SMIL player’s playlist fetches, GET and HEAD, as its heartbeats', async () => {
    expect(await stored(SMIL_DEVICE)).toBeUndefined()
    const url = `${server.url}/api/v1/player/${SMIL_DEVICE}/schedule.smil?token=${smilToken}`
    expect((await fetch(url)).status).toBe(200)
    expect(await stored(SMIL_DEVICE)).toMatchObject({ source: 'smil', seenAtEpochMs: clock })
    clock += 300_000
    expect((await fetch(url, { method: 'HEAD' })).status).toBe(200)
    expect(await stored(SMIL_DEVICE)).toMatchObject({ source: 'smil', seenAtEpochMs: clock })
    // a refused fetch is no sign of life
    clock += 300_000
    await fetch(url.replace(smilToken, 'nope'))
    expect((await stored(SMIL_DEVICE))?.seenAtEpochMs).toBe(clock - 300_000)
  })
})
