import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { spotlight } from '../../src/contract/catalogue.ts'
import { englishOf } from '../../src/contract/problems.ts'
import { shoutTimesLabel } from '../../src/domain/index.ts'
import { sql } from '../../src/server/platform/db/sql.ts'
import {
  answerOf,
  BACKENDS,
  type Checkout,
  type Client,
  client,
  daySlots,
  generateContent,
  LIVE,
  orderBody,
  placeOrder,
  savedCard,
  settledStatus,
  startTestServer,
  type TestServer,
} from './helpers.ts'

// At least 200 concurrent orders for overlapping slots. Every slot is sold at most once and
// every loser is told exactly which of its slots were taken.
const ORDERS = 220
const POOL = daySlots(6, 20, 40)

// A small deterministic generator, so that a failure can be replayed.
function random(seed: number) {
  let s = seed
  return () => {
    s = (s * 1103515245 + 12345) % 2 ** 31
    return s / 2 ** 31
  }
}

describe.each(BACKENDS)('booking race on %s', (backend) => {
  let server: TestServer
  let api: Client

  beforeAll(async () => {
    // 110 of the racers name a promo code from one address: far past a shopper's promo check limit
    server = await startTestServer(backend, { env: { PROMO_LOOKUPS_PER_MINUTE: '100000' } })
    api = client(server.url)
  })
  afterAll(async () => {
    await server?.stop()
  })

  it(`sells each slot once among ${ORDERS} concurrent orders`, async () => {
    const content = await generateContent(api)
    const next = random(42)
    // Half the orders pay by card, half use a 100% promo code (no payment): both paths race.
    const checkouts: (Checkout | null)[] = []
    for (let i = 0; i < ORDERS; i++) checkouts.push(i % 2 === 0 ? await savedCard(api) : null)
    const wanted = checkouts.map(() => {
      const picks = new Set<number>()
      const size = 1 + Math.floor(next() * 4)
      while (picks.size < size) picks.add(POOL[Math.floor(next() * POOL.length)] as number)
      return [...picks]
    })
    const replies = await Promise.all(
      wanted.map((slots, i) =>
        placeOrder(
          api,
          orderBody({
            slots,
            content,
            checkout: checkouts[i] ?? null,
            promoCode: checkouts[i] ? null : 'FREELOVE',
            email: `racer-${i}@example.com`,
          }),
        ),
      ),
    )
    expect(replies.every((r) => r.status === 201 || r.status === 409)).toBe(true)

    const owner = new Map<number, number>()
    replies.forEach((r, i) => {
      if (r.status !== 201) return
      for (const slot of wanted[i] as number[]) {
        expect(owner.has(slot), `slot ${slot} sold twice`).toBe(false)
        owner.set(slot, i)
      }
    })
    const winners = replies.filter((r) => r.status === 201).length
    expect(winners).toBeGreaterThan(0)
    expect(winners).toBeLessThan(ORDERS)

    const event = answerOf(spotlight.event, await api.get(`/spotlight/events/${LIVE}`))
    replies.forEach((r, i) => {
      if (r.status !== 409) return
      const taken = r.body.takenSlots as number[]
      expect(taken.length).toBeGreaterThan(0)
      for (const slot of taken) {
        expect(wanted[i]).toContain(slot)
        expect(owner.has(slot), `slot ${slot} reported taken but nobody bought it`).toBe(true)
      }
      // the slots of the loser that nobody won were not reported
      for (const slot of wanted[i] as number[]) {
        if (!owner.has(slot)) expect(taken).not.toContain(slot)
      }
      const labels = shoutTimesLabel(event, 'Europe/Paris', taken, 'en').join(', ')
      expect(r.body.errors).toEqual([englishOf({ code: 'slots_taken', params: { slots: labels } })])
    })

    // The database agrees: one reservation per sold slot, all by winners, and winners get confirmed.
    const rows = await server.deps.database.query(sql<{ slot_number: number; order_guid: string }>`
      select slot_number, order_guid from slot_reservations
      where event_slug = ${LIVE} and device_id = 'paris-opera-1'`)
    const sold = rows.map((r) => Number(r.slot_number)).filter((s) => POOL.includes(s))
    expect(new Set(sold).size).toBe(sold.length)
    expect(new Set(sold)).toEqual(new Set(owner.keys()))
    const winnerGuids = replies.filter((r) => r.status === 201).map((r) => r.body.guid)
    const states = await Promise.all(
      winnerGuids.slice(0, 20).map((g) => settledStatus(api, LIVE, g)),
    )
    expect(states.every((s) => s.orderState === 'Confirmed')).toBe(true)
  })
})
