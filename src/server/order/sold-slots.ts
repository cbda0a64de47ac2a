import type { Database } from '../platform/db/client.ts'
import { soldSlotNumbers } from './reads.ts'

// Slot search is the hottest read of the shop. The sold slots of a billboard change only when an
// order of this server reserves or frees them, so they are kept in memory and dropped on each change.
// On the embedded database this process is the only writer (the data directory is locked); on a
// shared PostgreSQL another server may sell too, so entries there live one second. Either way the
// search is advice: the unique key of slot_reservations is what stops a double sale.

export type SoldSlots = {
  get(eventSlug: string, deviceId: string): Promise<readonly number[]>
  /**
   * A billboard's slots of an event were sold or freed, or an order holding them changed state (the
   * player's schedule plays Confirmed orders only): drops what was kept and tells the listeners.
   */
  changed(eventSlug: string, deviceId: string): void
  onChange(listener: (eventSlug: string, deviceId: string) => void): void
}

export function createSoldSlots(database: Database, now: () => number = Date.now): SoldSlots {
  const ttlMs = database.kind === 'pglite' ? Number.POSITIVE_INFINITY : 1000
  const entries = new Map<string, { at: number; slots: number[] }>()
  const generations = new Map<string, number>()
  const listeners: ((eventSlug: string, deviceId: string) => void)[] = []
  const keyOf = (eventSlug: string, deviceId: string) => `${eventSlug}\u0000${deviceId}`
  return {
    async get(eventSlug, deviceId) {
      const key = keyOf(eventSlug, deviceId)
      const hit = entries.get(key)
      if (hit && now() - hit.at < ttlMs) return hit.slots
      const generation = generations.get(key) ?? 0
      const slots = await soldSlotNumbers(database, eventSlug, deviceId)
      // A change that committed while this read was running makes it stale: not kept.
      if ((generations.get(key) ?? 0) === generation) {
        if (entries.size > 10_000) entries.clear()
        entries.set(key, { at: now(), slots })
      }
      return slots
    },
    changed(eventSlug, deviceId) {
      const key = keyOf(eventSlug, deviceId)
      generations.set(key, (generations.get(key) ?? 0) + 1)
      entries.delete(key)
      for (const listener of listeners) listener(eventSlug, deviceId)
    },
    onChange(listener) {
      listeners.push(listener)
    },
  }
}
