import { randomUUID } from 'node:crypto'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { order, type Play, player } from '../../src/contract/index.ts'
import { playsOfSlot } from '../../src/domain/index.ts'
import { sql } from '../../src/server/platform/db/sql.ts'
import { refusedPlays } from '../../src/server/player/repo.ts'
import {
  answerOf,
  BACKENDS,
  boughtOrder,
  type Client,
  type ContentSource,
  client,
  daySlots,
  eventOf,
  generateContent,
  LIVE,
  startTestServer,
  type TestServer,
} from './helpers.ts'

// Proofs of play (api-v1 POST /player/{deviceId}/plays): each play stored once, only once it has
// aired, only what was scheduled for this billboard, and a billboard's posts limited.

const DEVICE = 'paris-opera-1'
const PARIS = 'Europe/Paris'

describe.each(BACKENDS)('proofs of play on %s', (backend) => {
  let server: TestServer
  let api: Client
  let content: { key: string; source: ContentSource }
  let token: string
  let event: Awaited<ReturnType<typeof eventOf>>
  let confirmed: { guid: string; slots: number[] }
  let failed: { guid: string; slots: number[] }
  /** The server's clock: each test puts it where its plays have aired (or not). */
  let clock = Date.now()
  const bearer = () => ({ authorization: `Bearer ${token}` })
  const post = (plays: Play[], deviceId = DEVICE, headers = bearer()) =>
    api.post(`/player/${deviceId}/plays`, { plays }, headers)
  /** A batch's answer, parsed with the contract (after its 202). */
  const proved = async (plays: Play[], deviceId = DEVICE, headers = bearer()) =>
    answerOf(player.plays, await post(plays, deviceId, headers))

  beforeAll(async () => {
    server = await startTestServer(backend, { now: () => clock })
    api = client(server.url)
    content = await generateContent(api)
    const linked = await server.deps.player.link(DEVICE)
    if (!linked.ok) throw new Error('link failed')
    token = linked.value.token
    event = await eventOf(api, LIVE)
    confirmed = await boughtOrder(api, { slots: daySlots(2, 40, 2), content })
    expect((confirmed as { state?: string }).state).toBe('Confirmed')
    failed = await boughtOrder(api, {
      slots: daySlots(2, 44, 1),
      content,
      card: '4000000000000341',
    })
  })
  afterAll(async () => {
    await server?.stop()
  })
  const summaryOf = async (guid: string) =>
    answerOf(order.summary, await api.get(`/order/events/${LIVE}/orders/${guid}`))

  const scheduled = (slotNumber: number, playIndex: number) =>
    playsOfSlot(event, PARIS, slotNumber)[playIndex] as { startEpochMs: number; endEpochMs: number }
  const playOf = (guid: string, slotNumber: number, playIndex: number): Play => {
    const p = scheduled(slotNumber, playIndex)
    return {
      playId: randomUUID(),
      orderGuid: guid,
      slotNumber,
      playIndex,
      startedAtEpochMs: p.startEpochMs + 40,
      endedAtEpochMs: p.startEpochMs + 15_020,
    }
  }
  /** The clock once every play of the slot has ended. */
  const afterSlot = (slotNumber: number) => scheduled(slotNumber, 3).endEpochMs + 60_000

  it('stores a play once, however often and however concurrently it is posted', async () => {
    const slot = confirmed.slots[0] as number
    clock = afterSlot(slot)
    const plays = [playOf(confirmed.guid, slot, 0), playOf(confirmed.guid, slot, 1)]
    const first = await proved(plays)
    expect(first).toEqual({ accepted: 2, duplicates: 0, refused: 0 })
    const again = await proved([...plays, plays[0] as Play])
    expect(again).toEqual({ accepted: 0, duplicates: 3, refused: 0 })

    const racing = [playOf(confirmed.guid, slot, 2)]
    const answers = await Promise.all(Array.from({ length: 8 }, () => proved(racing)))
    expect(answers.reduce((n, a) => n + a.accepted, 0)).toBe(1)

    const summary = await summaryOf(confirmed.guid)
    expect(summary.playsPerSlot).toBe(4)
    expect(summary.secondsPerShout).toBe(15)
    expect(summary.plays).toEqual(
      [...plays, ...racing].map(({ slotNumber, playIndex, startedAtEpochMs, endedAtEpochMs }) => ({
        slotNumber,
        playIndex,
        startedAtEpochMs,
        endedAtEpochMs,
      })),
    )
  })

  it('stores a play once when it comes again under new play ids, so the summary stays the size of the order', async () => {
    const slot = confirmed.slots[0] as number
    clock = afterSlot(slot)
    const last = playOf(confirmed.guid, slot, 3)
    expect(await proved([last])).toEqual({ accepted: 1, duplicates: 0, refused: 0 })
    // 500 copies of the one play, each with a new id, in one batch and then concurrently
    const copies = () => Array.from({ length: 500 }, () => ({ ...last, playId: randomUUID() }))
    expect(await proved(copies())).toEqual({ accepted: 0, duplicates: 500, refused: 0 })
    const racing = await Promise.all(Array.from({ length: 4 }, () => proved(copies())))
    expect(racing.map((r) => r.accepted)).toEqual([0, 0, 0, 0])
    const [stored] = await server.deps.database.query(sql<{ n: number }>`
      select count(*)::int as n from plays where order_guid = ${confirmed.guid}`)
    expect(stored?.n).toBe(4)
    expect((await summaryOf(confirmed.guid)).plays).toHaveLength(4)
  })

  it('refuses a proof of a play that has not aired yet, allowing a billboard clock a little ahead', async () => {
    const slot = confirmed.slots[1] as number
    const start = scheduled(slot, 0).startEpochMs
    const before = await refusedPlays(server.deps.database, DEVICE)
    // ten minutes before the play: a player reporting what it only plans to play
    clock = start - 10 * 60_000
    expect(await proved([playOf(confirmed.guid, slot, 0)])).toEqual({
      accepted: 0,
      duplicates: 0,
      refused: 1,
    })
    expect(await refusedPlays(server.deps.database, DEVICE)).toBe(before + 1)
    // a minute before by our clock: the billboard's clock runs ahead, within the 120 s allowed
    clock = start - 60_000
    expect(await proved([playOf(confirmed.guid, slot, 0)])).toEqual({
      accepted: 1,
      duplicates: 0,
      refused: 0,
    })
  })

  it('refuses and counts plays that match nothing scheduled for this billboard', async () => {
    const slot = confirmed.slots[1] as number
    clock = afterSlot(slot + 4)
    const before = await refusedPlays(server.deps.database, DEVICE)
    const farOff = playOf(confirmed.guid, slot, 1)
    farOff.startedAtEpochMs += 3_600_000
    farOff.endedAtEpochMs += 3_600_000
    const plays = [
      playOf(failed.guid, failed.slots[0] as number, 0), // an order that may not play
      playOf(confirmed.guid, slot + 1, 0), // a slot the order did not buy
      { ...playOf(confirmed.guid, slot, 1), playIndex: 7 }, // no such play of the slot
      farOff, // at another time
      { ...playOf(confirmed.guid, slot, 1), orderGuid: randomUUID() }, // no such order
    ]
    expect(await proved(plays)).toEqual({ accepted: 0, duplicates: 0, refused: 5 })
    // another billboard reporting this billboard's play
    const other = await server.deps.player.link('paris-republique')
    if (!other.ok) throw new Error('link failed')
    const stolen = await proved([playOf(confirmed.guid, slot, 1)], 'paris-republique', {
      authorization: `Bearer ${other.value.token}`,
    })
    expect(stolen).toEqual({ accepted: 0, duplicates: 0, refused: 1 })
    expect(await refusedPlays(server.deps.database, DEVICE)).toBe(before + 5)
    const stored = await server.deps.database.query(
      sql<{ n: number }>`select count(*)::int as n from plays where order_guid = ${failed.guid}`,
    )
    expect(stored[0]?.n).toBe(0)
  })

  it('limits a billboard to 30 batches a minute, whatever address it posts from', async () => {
    const slot = confirmed.slots[0] as number
    clock = afterSlot(slot) + 3 * 3_600_000
    const replay = [playOf(confirmed.guid, slot, 0)]
    const statuses: number[] = []
    for (let i = 0; i < 31; i++) statuses.push((await post(replay)).status)
    expect(statuses.slice(0, 30)).toEqual(Array(30).fill(202))
    const limited = await post(replay)
    expect(limited.status).toBe(429)
    expect(limited.body).toMatchObject({ codes: ['too_many_requests'] })
    expect(Number(limited.headers.get('retry-after'))).toBeGreaterThan(0)
    // another billboard is not held
    const other = await server.deps.player.link('paris-republique')
    if (!other.ok) throw new Error('link failed')
    const elsewhere = await post(replay, 'paris-republique', {
      authorization: `Bearer ${other.value.token}`,
    })
    expect(elsewhere.status).toBe(202)
    // the next minute, it posts again
    clock += 61_000
    expect((await post(replay)).status).toBe(202)
  })
})
