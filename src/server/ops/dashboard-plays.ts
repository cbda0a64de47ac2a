import type { ShoutEvent } from '../../contract/catalogue.ts'
import type { DashboardEvent } from '../../contract/ops/dashboard.ts'
import { eventDates, eventWindowEpochMs, slotsPerDevice } from '../../domain/event.ts'
import { makeGoodDueAt, playOutcome } from '../../domain/make-good.ts'
import { playsOfSlot } from '../../domain/schedule.ts'
import { slotEndEpochMs } from '../../domain/slots.ts'
import { type DecidedMakeGood, makeGoodsOfEvent } from '../make-good/reads.ts'
import { confirmedSlots } from '../order/reads.ts'
import type { Queryable } from '../platform/db/client.ts'
import { proofsOfSlots } from '../player/reads.ts'
import { todayIn } from './billboards.ts'

// The dashboard's plays per day of an event: each sold play of a Confirmed order on each billboard
// of the event, counted on the local day it starts (the zone the dashboard's days use), as proven or
// missed by the make-good rule (src/domain/make-good.ts playOutcome); and what the decided
// make-goods refunded, on the days of the plays they refunded. Read through the order module's
// sold slots, the player module's proofs and the make-good module's decisions.

type Plays = Pick<DashboardEvent, 'playsPerDay' | 'makeGoodRefundsPerDay'>

export async function playsPerDay(
  db: Queryable,
  event: ShoutEvent,
  devices: readonly { deviceId: string; timeZoneId: string }[],
  zone: string,
  nowEpochMs: number,
  graceHours: number,
): Promise<Plays> {
  const days = new Map(
    eventDates(event, zone).map((d) => [d.toString(), { due: 0, proven: 0, missed: 0 }]),
  )
  const refunds = new Map<string, { orders: Set<string>; cents: number }>()
  const decided = new Map<string, DecidedMakeGood>(
    (await makeGoodsOfEvent(db, event.slug)).map((g) => [g.orderGuid, g]),
  )
  for (const device of devices) {
    const tz = device.timeZoneId
    const last = slotsPerDevice(event, tz) - 1
    if (last < 0) continue
    const [sold, proofs] = await Promise.all([
      confirmedSlots(db, event.slug, device.deviceId, 0, last),
      proofsOfSlots(db, device.deviceId, event.slug, 0, last),
    ])
    const proven = new Set(proofs.map((p) => `${p.orderGuid}:${p.slotNumber}:${p.playIndex}`))
    const start = eventWindowEpochMs(event, tz).startEpochMs
    for (const slot of sold) {
      const makeGood = decided.get(slot.orderGuid)
      // a slot is decided on its own, the grace after it ends; undecided, its plays are awaited till then
      const verdict = makeGood?.slots.find((s) => s.slotNumber === slot.slotNumber)
      const slotEnd = slotEndEpochMs(event, tz, slot.slotNumber)
      const plays = playsOfSlot(event, tz, slot.slotNumber)
      for (const play of plays) {
        const day = todayIn(zone, play.startEpochMs)
        const sums = days.get(day) ?? { due: 0, proven: 0, missed: 0 }
        const outcome = playOutcome(
          {
            proven: proven.has(`${slot.orderGuid}:${slot.slotNumber}:${play.playIndex}`),
            decidedMissed: verdict ? verdict.missedPlayIndexes.includes(play.playIndex) : null,
            makeGoodDueAtEpochMs: makeGoodDueAt(slotEnd, graceHours),
          },
          nowEpochMs,
        )
        sums.due++
        if (outcome !== 'awaited') sums[outcome]++
        days.set(day, sums)
      }
      if (makeGood && verdict && verdict.refundCents > 0) {
        const day = todayIn(zone, plays[0]?.startEpochMs ?? start)
        const key = `${day}|${makeGood.currency}`
        const sums = refunds.get(key) ?? { orders: new Set<string>(), cents: 0 }
        sums.orders.add(slot.orderGuid)
        sums.cents += verdict.refundCents
        refunds.set(key, sums)
      }
    }
  }
  return {
    playsPerDay: [...days]
      .sort(([a], [b]) => (a < b ? -1 : 1))
      .map(([day, sums]) => ({ day, ...sums })),
    makeGoodRefundsPerDay: [...refunds]
      .sort(([a], [b]) => (a < b ? -1 : 1))
      .map(([key, sums]) => {
        const [day = '', currency = ''] = key.split('|')
        return { day, currency, orders: sums.orders.size, cents: sums.cents }
      }),
  }
}
