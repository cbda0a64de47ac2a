import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import type { BillboardsHealth, Heartbeat } from '../../src/contract/index.ts'
import { BACKENDS, client, startTestServer, type TestServer } from './helpers.ts'
import { signedInOperator } from './ops-helpers.ts'

// The console's Billboards page: each billboard's state from its last report, as an operator
// reads it (api-v1 "Operations", GET /ops/billboard-health).
const WEB = 'paris-opera-1'
const SMIL = 'paris-republique'

describe.each(BACKENDS)('the console’s billboards on %s', (backend) => {
  let server: TestServer
  let clock = Date.UTC(2027, 4, 7, 8, 0, 0)
  const tokens: Record<string, string> = {}

  beforeAll(async () => {
    server = await startTestServer(backend, { now: () => clock })
    for (const device of [WEB, SMIL]) {
      const linked = await server.deps.player.link(device)
      if (!linked.ok) throw new Error('link failed')
      tokens[device] = linked.value.token
    }
  })
  afterAll(async () => {
    await server?.stop()
  })

  const beat: Heartbeat = {
    sentAtEpochMs: 0,
    showing: { kind: 'house' },
    clockCorrectionMs: 0,
    window: null,
    files: { cached: 3, failed: 1 },
    pendingPlays: 2,
    version: '1.2.3',
    screen: { widthPx: 1400, heightPx: 400 },
  }

  it('shows one billboard playing, one offline since its last fetch, the others never connected', async () => {
    const api = client(server.url)
    // the SMIL player fetched its playlist, then went quiet for 11 minutes
    const smil = `${server.url}/api/v1/player/${SMIL}/schedule.smil?token=${tokens[SMIL]}`
    expect((await fetch(smil)).status).toBe(200)
    const smilSeen = clock
    clock += 11 * 60_000
    // the web player's clock is 5 s slow
    const sent = { ...beat, sentAtEpochMs: clock - 5_000 }
    const beaten = await api.post(`/player/${WEB}/heartbeat`, sent, {
      authorization: `Bearer ${tokens[WEB]}`,
    })
    expect(beaten.status).toBe(200)

    const reviewer = await signedInOperator(server, 'reviewer')
    const res = await reviewer.api.get<BillboardsHealth>('/ops/billboard-health')
    expect(res.status).toBe(200)
    expect(res.body.offlineMinutes).toBe(10)
    expect(res.body.generatedAtEpochMs).toBe(clock)
    const of = (id: string) => res.body.billboards.find((b) => b.deviceId === id)
    expect(of(WEB)).toMatchObject({
      state: 'playing',
      lastSeenEpochMs: clock,
      source: 'web',
      clockOffsetMs: 5_000,
      beat: {
        showing: { kind: 'house' },
        files: { cached: 3, failed: 1 },
        pendingPlays: 2,
        version: '1.2.3',
        screen: { widthPx: 1400, heightPx: 400 },
      },
    })
    expect(of(SMIL)).toMatchObject({
      state: 'offline',
      lastSeenEpochMs: smilSeen,
      source: 'smil',
      clockOffsetMs: null,
      beat: null,
    })
    const others = res.body.billboards.filter((b) => b.deviceId !== WEB && b.deviceId !== SMIL)
    expect(others.length).toBeGreaterThan(0)
    for (const other of others)
      expect(other).toMatchObject({ state: 'never', lastSeenEpochMs: null })

    // three minutes late for its minute's beat, the web player is stale
    clock += 3 * 60_000 + 1
    const later = await reviewer.api.get<BillboardsHealth>('/ops/billboard-health')
    expect(later.body.billboards.find((b) => b.deviceId === WEB)?.state).toBe('stale')
  })

  it('is for operators only', async () => {
    const anonymous = await client(server.url).get('/ops/billboard-health', {
      origin: server.url,
    })
    expect(anonymous.status).toBe(401)
  })
})
