import type { Schedule, ScheduleItem } from '../../contract/index.ts'

// A billboard's schedule is made of pieces the caches hand out as the same arrays until they change:
// each event's plays of its sold slots (service.ts playsOf) and the campaigns' plays on air
// (advertisers/on-air.ts). A player asking again for the same window, while none of them changed,
// gets the same merged list and the same JSON text of it: a day of plays with campaigns is about
// 3,000 items and 900 KB, which is worth merging, sorting and writing once, not on every fetch. The
// answer is exactly what it would be computed afresh: nothing here adds to the caches' staleness.

/** Windows kept per server: a player asks for a few, the web player and a SMIL player for others. */
const MAX_WINDOWS = 2000

type Kept = { pieces: readonly (readonly ScheduleItem[])[]; items: ScheduleItem[] }

const sameArrays = (a: readonly unknown[], b: readonly unknown[]) =>
  a.length === b.length && a.every((x, i) => x === b[i])

const idOf = (item: ScheduleItem) => item.orderGuid ?? item.campaignId ?? ''

/** The pieces' items in time order (ties by order or campaign, so the order never flickers). */
export function mergeItems(pieces: readonly (readonly ScheduleItem[])[]): ScheduleItem[] {
  return pieces
    .flat()
    .sort((a, b) => a.startEpochMs - b.startEpochMs || idOf(a).localeCompare(idOf(b)))
}

export function createScheduleItems() {
  const kept = new Map<string, Kept>()
  return {
    /** The merged items of a window: the same array as last time when every piece is the same. */
    of(windowKey: string, pieces: readonly (readonly ScheduleItem[])[]): ScheduleItem[] {
      const hit = kept.get(windowKey)
      if (hit && sameArrays(hit.pieces, pieces)) return hit.items
      const items = mergeItems(pieces)
      if (kept.size >= MAX_WINDOWS) kept.clear()
      kept.set(windowKey, { pieces, items })
      return items
    },
  }
}

const itemsJson = new WeakMap<readonly ScheduleItem[], string>()

/**
 * The schedule as JSON, its items written once per list: the rest (the server's time, the house
 * card) is written on every answer. The same text JSON.stringify would make of the whole.
 */
export function scheduleJson(schedule: Schedule): string {
  const { items, ...head } = schedule
  let json = itemsJson.get(items)
  if (json === undefined) {
    json = JSON.stringify(items)
    itemsJson.set(items, json)
  }
  const start = JSON.stringify(head)
  return `${start.slice(0, -1)},"items":${json}}`
}
