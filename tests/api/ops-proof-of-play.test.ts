import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { spotlight } from '../../src/contract/catalogue.ts'
import { type playsOfSlot, slotStartEpochMs } from '../../src/domain/index.ts'
import {
  answerOf,
  BACKENDS,
  boughtOrder,
  type Client,
  client,
  daySlots,
  generateContent,
  LIVE,
  proofsOfSlot,
  startTestServer,
  type TestServer,
} from './helpers.ts'
import { clientWith, type SignedIn, signedInOperator } from './ops-helpers.ts'

// The console's proof-of-play export (api: /api/v1/ops/proof-of-play): a billboard's, an event's or
// the fleet's proven plays as CSV, one row a play with both its times, after real orders and the
// billboard's real reports; who may read it.
const DEVICE = 'paris-opera-1'
const PARIS = 'Europe/Paris'
type Event = Parameters<typeof playsOfSlot>[0]

describe.each(BACKENDS)('the proof-of-play export on %s', (backend) => {
  let server: TestServer
  let api: Client
  let event: Event
  let clock = Date.now()
  let reviewer: SignedIn
  let orderGuid: string
  let slot: number
  let proven: ReturnType<typeof proofsOfSlot>

  /** The CSV as rows of cells (the export's cells hold no comma or quote here). */
  const csv = async (query: string, who = reviewer) => {
    const res = await fetch(`${server.url}/api/v1/ops/proof-of-play${query}`, {
      headers: { cookie: who.cookie },
    })
    const text = await res.text()
    return {
      status: res.status,
      type: res.headers.get('content-type'),
      disposition: res.headers.get('content-disposition'),
      rows: text
        .trimEnd()
        .split('\r\n')
        .map((line) => line.split(',')),
    }
  }

  beforeAll(async () => {
    server = await startTestServer(backend, { now: () => clock })
    api = client(server.url)
    const content = await generateContent(api)
    event = answerOf(spotlight.event, await api.get(`/spotlight/events/${LIVE}`))
    slot = daySlots(2, 40, 1)[0] as number
    const order = await boughtOrder(api, { slots: [slot], content })
    expect(order.state).toBe('Confirmed')
    orderGuid = order.guid
    const linked = await server.deps.player.link(DEVICE)
    if (!linked.ok) throw new Error('link failed')
    proven = proofsOfSlot(event, PARIS, orderGuid, slot, { start: 30, end: 10 })
    clock = Math.max(...proven.map((p) => p.endedAtEpochMs)) + 60_000
    const posted = await api.post(
      `/player/${DEVICE}/plays`,
      { plays: proven },
      { authorization: `Bearer ${linked.value.token}` },
    )
    expect(posted.body).toMatchObject({ accepted: proven.length })
    // the same batch sent again (a player that lost its record of sending it) stores nothing twice
    const again = await api.post(
      `/player/${DEVICE}/plays`,
      { plays: proven },
      { authorization: `Bearer ${linked.value.token}` },
    )
    expect(again.body).toMatchObject({ accepted: 0 })
    reviewer = await signedInOperator(server, 'reviewer')
  })
  afterAll(async () => {
    await server?.stop()
  })

  it("holds each proven play of a billboard once, with its times in UTC and on the billboard's clock", async () => {
    const day = new Date(slotStartEpochMs(event, PARIS, slot)).toLocaleDateString('sv-SE', {
      timeZone: PARIS,
    })
    const got = await csv(`?deviceId=${DEVICE}&from=${day}&to=${day}`)
    expect(got.status).toBe(200)
    expect(got.type).toMatch(/^text\/csv/)
    expect(got.disposition).toContain(`proof-of-play-${DEVICE}-${day}-${day}.csv`)
    const [header, ...rows] = got.rows
    expect(header).toEqual([
      'billboard',
      'time_zone',
      'start_utc',
      'end_utc',
      'start_local',
      'end_local',
      'duration_seconds',
      'kind',
      'order',
      'campaign',
      'content_id',
      'proven_by',
      'proof_id',
      'reported_at_utc',
    ])
    expect(rows).toHaveLength(proven.length)
    expect(rows.map((r) => r[12])).toEqual(proven.map((p) => p.playId))
    const utc = (ms: number) => new Date(ms).toISOString().slice(0, 19).replace('T', ' ')
    const local = (ms: number) =>
      new Date(ms).toLocaleString('sv-SE', { timeZone: PARIS }).replace(',', '')
    proven.forEach((play, i) => {
      const row = rows[i] ?? []
      expect(row.slice(0, 6)).toEqual([
        DEVICE,
        PARIS,
        utc(play.startedAtEpochMs),
        utc(play.endedAtEpochMs),
        local(play.startedAtEpochMs),
        local(play.endedAtEpochMs),
      ])
      expect(Number(row[6])).toBeCloseTo((play.endedAtEpochMs - play.startedAtEpochMs) / 1000, 1)
      expect(row.slice(7, 9)).toEqual(['shout', orderGuid])
      expect(row[10]).not.toBe('')
      expect(row[11]).toBe('player_report')
    })
  })

  it("exports an event's and the fleet's proofs, and nothing of a day without plays", async () => {
    const forEvent = await csv(`?eventSlug=${LIVE}`)
    expect(forEvent.status).toBe(200)
    expect(forEvent.rows.slice(1).map((r) => r[12])).toEqual(proven.map((p) => p.playId))
    const day = new Date(slotStartEpochMs(event, PARIS, slot)).toISOString().slice(0, 10)
    const next = new Date(Date.parse(day) + 2 * 86_400_000).toISOString().slice(0, 10)
    const fleet = await csv(`?from=${day}&to=${next}`)
    expect(fleet.rows.slice(1)).toHaveLength(proven.length)
    const quiet = await csv(`?deviceId=${DEVICE}&from=2020-01-01&to=2020-01-02`)
    expect(quiet.rows).toHaveLength(1)
  })

  it('refuses an unknown billboard or event (404), a bad day (400), anyone not signed in (401)', async () => {
    expect((await csv('?deviceId=nowhere-1')).status).toBe(404)
    expect((await csv('?eventSlug=no-such-event')).status).toBe(404)
    expect((await csv('?from=yesterday')).status).toBe(400)
    const anonymous = await clientWith(server.url, { origin: server.url }).get('/ops/proof-of-play')
    expect(anonymous.status).toBe(401)
  })
})
