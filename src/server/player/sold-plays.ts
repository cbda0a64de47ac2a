import { eventWindowEpochMs, slotsPerDevice } from '../../domain/event.ts'
import { playsOfSlot } from '../../domain/schedule.ts'
import { eventsOfDevice } from '../catalogue/reads.ts'
import { confirmedSlots } from '../order/reads.ts'
import type { Queryable } from '../platform/db/client.ts'
import { proofsOfSlots } from './reads.ts'

// The plays a billboard owes its shoppers in a stretch of time: each play of a slot sold to a
// Confirmed order that starts in [from, to), whether the billboard proved it, and whether it is
// missed (ended before `now` without proof). The offline alerts count what an outage missed with
// it, and the console's Billboards page a day's plays.

export type SoldPlays = { due: number; proven: number; missed: number }

export async function soldPlaysBetween(
  db: Queryable,
  device: { deviceId: string; timeZoneId: string },
  fromEpochMs: number,
  toEpochMs: number,
  nowEpochMs: number,
): Promise<SoldPlays> {
  const counts: SoldPlays = { due: 0, proven: 0, missed: 0 }
  if (toEpochMs <= fromEpochMs) return counts
  for (const event of await eventsOfDevice(db, device.deviceId)) {
    const tz = device.timeZoneId
    const start = eventWindowEpochMs(event, tz).startEpochMs
    const lastSlot = slotsPerDevice(event, tz) - 1
    // a slot's plays start within it, so the slots that overlap the stretch hold them all
    const first = Math.max(0, Math.floor((fromEpochMs - start) / event.slotWidthMS))
    const last = Math.min(lastSlot, Math.floor((toEpochMs - 1 - start) / event.slotWidthMS))
    if (last < first) continue
    const [sold, proofs] = await Promise.all([
      confirmedSlots(db, event.slug, device.deviceId, first, last),
      proofsOfSlots(db, device.deviceId, event.slug, first, last),
    ])
    const proven = new Set(proofs.map((p) => `${p.orderGuid}:${p.slotNumber}:${p.playIndex}`))
    for (const slot of sold) {
      for (const play of playsOfSlot(event, tz, slot.slotNumber)) {
        if (play.startEpochMs < fromEpochMs || play.startEpochMs >= toEpochMs) continue
        counts.due++
        if (proven.has(`${slot.orderGuid}:${slot.slotNumber}:${play.playIndex}`)) counts.proven++
        else if (play.endEpochMs <= nowEpochMs) counts.missed++
      }
    }
  }
  return counts
}
