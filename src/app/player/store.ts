import { createStore, get, set, update } from 'idb-keyval'
import * as v from 'valibot'
import { HouseCardSchema, type Play, PlaySchema, ScheduleItemSchema } from '../../contract/player'

// What the billboard player keeps in IndexedDB: its token (never in the address bar once
// read), the schedule it plays (so a reload with the network down keeps playing), and the proofs of
// play not yet accepted by the server. A store of its own: the shop's persistence wrapper ages and
// clears its keys by the shopper's timeouts, which mean nothing on a billboard.

const store = createStore('shouts-player', 'keyval')

/**
 * The schedule the player keeps: the last house card, every item not over yet, the last window
 * fetched, and the correction of its clock to the server's (so a reload offline plays on time).
 */
export type KeptSchedule = v.InferOutput<typeof KeptScheduleSchema>

const KeptScheduleSchema = v.object({
  deviceId: v.string(),
  timeZoneId: v.string(),
  house: HouseCardSchema,
  items: v.array(ScheduleItemSchema),
  fetchedAtEpochMs: v.number(),
  // optional: a schedule kept by an older player still plays
  window: v.optional(v.object({ fromEpochMs: v.number(), toEpochMs: v.number() })),
  clockCorrectionMs: v.optional(v.number(), 0),
})

const keys = {
  token: (deviceId: string) => `token:${deviceId}`,
  schedule: (deviceId: string) => `schedule:${deviceId}`,
  plays: (deviceId: string) => `plays:${deviceId}`,
}

export async function readToken(deviceId: string): Promise<string | null> {
  const token = await get<unknown>(keys.token(deviceId), store)
  return typeof token === 'string' && token !== '' ? token : null
}

export const saveToken = (deviceId: string, token: string) =>
  set(keys.token(deviceId), token, store)

// Parsed on every read (conventions, habit 2): a kept value from an older player is dropped, not trusted.
export async function readSchedule(deviceId: string): Promise<KeptSchedule | null> {
  const parsed = v.safeParse(KeptScheduleSchema, await get(keys.schedule(deviceId), store))
  return parsed.success ? parsed.output : null
}

export const saveSchedule = (deviceId: string, schedule: KeptSchedule) =>
  set(keys.schedule(deviceId), schedule, store)

export async function readPendingPlays(deviceId: string): Promise<Play[]> {
  return pendingOf(await get(keys.plays(deviceId), store))
}

const pendingOf = (value: unknown): Play[] => {
  const parsed = v.safeParse(v.array(PlaySchema), value)
  return parsed.success ? parsed.output : []
}

// One IndexedDB transaction each (idb-keyval's update), so a play recorded while a batch is being
// sent is never lost by the removal of that batch.

/** Adds a finished play to the ones waiting for the server. */
export const addPendingPlay = (deviceId: string, play: Play) =>
  update(keys.plays(deviceId), (value) => [...pendingOf(value), play], store)

/** Forgets the plays the server has (accepted or already had). */
export const removePendingPlays = (deviceId: string, playIds: ReadonlySet<string>) =>
  update(
    keys.plays(deviceId),
    (value) => pendingOf(value).filter((p) => !playIds.has(p.playId)),
    store,
  )
