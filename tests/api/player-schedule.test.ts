import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { player } from '../../src/contract/index.ts'
import { slotStartEpochMs } from '../../src/domain/index.ts'
import {
  answerOf,
  BACKENDS,
  boughtOrder,
  type Client,
  client,
  daySlots,
  eventOf,
  generateContent,
  LIVE,
  startTestServer,
  type TestServer,
} from './helpers.ts'
import { type SignedIn, signedInOperator } from './ops-helpers.ts'

// A billboard's schedule is answered from memory; it still follows its orders at once: the order
// confirmed, approved after review, cancelled. The shop's clock stands still here, so nothing kept
// in memory can age out: only the change itself can show in the next answer.

const DEVICE = 'paris-opera-1'
const PARIS = 'Europe/Paris'
const PROFANE = 'Joyeux anniversaire, espèce de connard'

describe.each(BACKENDS)('a billboard’s schedule as its orders change, on %s', (backend) => {
  let server: TestServer
  let api: Client
  let operator: SignedIn
  let token: string
  const frozen = Date.now()

  beforeAll(async () => {
    server = await startTestServer(backend, { now: () => frozen })
    api = client(server.url)
    operator = await signedInOperator(server, 'admin')
    const linked = await server.deps.player.link(DEVICE)
    if (!linked.ok) throw new Error('link failed')
    token = linked.value.token
  })
  afterAll(async () => {
    await server?.stop()
  })

  const guidsOnSchedule = async () => {
    const event = await eventOf(api, LIVE)
    const from = slotStartEpochMs(event, PARIS, daySlots(4, 0, 1)[0] as number)
    const res = await api.get(
      `/player/${DEVICE}/schedule?fromEpochMs=${from}&toEpochMs=${from + 24 * 3_600_000}`,
      { authorization: `Bearer ${token}` },
    )
    return new Set(answerOf(player.schedule, res).items.map((i) => i.orderGuid))
  }

  it('plays an order once it is confirmed, and no more once it is cancelled', async () => {
    expect((await guidsOnSchedule()).size).toBe(0)
    const content = await generateContent(api, DEVICE)
    const order = await boughtOrder(api, { slots: daySlots(4, 10, 2), content })
    expect(order.state).toBe('Confirmed')
    expect(await guidsOnSchedule()).toContain(order.guid)

    const cancelled = await operator.api.post(`/ops/orders/${order.guid}/cancel`, {
      reason: 'The billboard is under repair',
    })
    expect(cancelled.status).toBe(200)
    expect(await guidsOnSchedule()).not.toContain(order.guid)
  })

  it('plays an order under review once an operator approves it', async () => {
    const content = await generateContent(api, DEVICE, LIVE, 'hearts', PROFANE)
    const order = await boughtOrder(api, { slots: daySlots(4, 20, 1), content })
    expect(order.state).toBe('UnderReview')
    expect(await guidsOnSchedule()).not.toContain(order.guid)

    const approved = await operator.api.post(`/ops/orders/${order.guid}/approve`, {})
    expect(approved.status).toBe(200)
    expect(await guidsOnSchedule()).toContain(order.guid)
  })
})
