import {
  type DeviceEvent,
  eventsOfDevice,
  type PlayerDevice,
  playerDevice,
} from '../catalogue/reads.ts'
import { type ConfirmedSlot, confirmedSlots } from '../order/reads.ts'
import type { SoldSlots } from '../order/sold-slots.ts'
import type { Queryable } from '../platform/db/client.ts'

// A billboard's schedule is asked for by its player every few minutes and by the web player, and
// the rows it is made of seldom change: the billboard and its events only by a catalogue import, its
// Confirmed slots when an order of the billboard is confirmed, cancelled or fails. They are kept in
// memory. This server's own changes drop them at once (SoldSlots.changed); another instance's, or a
// catalogue import, show within the times below (the bound on stale caches in docs/deploying.md).
// Concurrent misses of one entry share one read.

/** The billboard and its events (catalogue rows), as long as the shop's catalogue cache keeps them. */
const CATALOGUE_TTL_MS = 2000
/** The Confirmed slots of an event on a billboard, when another instance may have changed them. */
const SLOTS_TTL_MS = 1000
const MAX_ENTRIES = 2000

type Entry<T> = { at: number; value: Promise<T>; generation: number }

function kept<T>(now: () => number, ttlMs: number) {
  const entries = new Map<string, Entry<T>>()
  return {
    get(key: string, generation: number, load: () => Promise<T>): Promise<T> {
      const hit = entries.get(key)
      const t = now()
      if (hit && hit.generation === generation && t - hit.at < ttlMs) return hit.value
      const value = load()
      if (entries.size >= MAX_ENTRIES) entries.clear()
      const entry = { at: t, value, generation }
      entries.set(key, entry)
      // a failed read is not kept
      value.catch(() => {
        if (entries.get(key) === entry) entries.delete(key)
      })
      return value
    },
  }
}

export type PlayoutCache = ReturnType<typeof createPlayoutCache>

export function createPlayoutCache(db: Queryable, now: () => number, soldSlots: SoldSlots) {
  const devices = kept<PlayerDevice | null>(now, CATALOGUE_TTL_MS)
  const events = kept<DeviceEvent[]>(now, CATALOGUE_TTL_MS)
  const slots = kept<readonly ConfirmedSlot[]>(now, SLOTS_TTL_MS)
  // Bumped by each change of an event's slots on a billboard: an entry read before it is not used,
  // nor one whose read was running when it happened (its generation is the older one). One number
  // per billboard and event that sold something: bounded by the catalogue.
  const generations = new Map<string, number>()
  const slotsKey = (eventSlug: string, deviceId: string) => `${eventSlug}\u0000${deviceId}`
  soldSlots.onChange((eventSlug, deviceId) => {
    const key = slotsKey(eventSlug, deviceId)
    generations.set(key, (generations.get(key) ?? 0) + 1)
  })
  return {
    device: (deviceId: string) => devices.get(deviceId, 0, () => playerDevice(db, deviceId)),
    events: (deviceId: string) => events.get(deviceId, 0, () => eventsOfDevice(db, deviceId)),
    /**
     * The slots in [first, last] of an event on a billboard sold to Confirmed orders: the same array
     * until they change, so a caller may key what it computes from them by it.
     */
    confirmedSlots(eventSlug: string, deviceId: string, first: number, last: number) {
      const key = slotsKey(eventSlug, deviceId)
      return slots.get(`${key}\u0000${first}\u0000${last}`, generations.get(key) ?? 0, () =>
        confirmedSlots(db, eventSlug, deviceId, first, last),
      )
    },
  }
}
