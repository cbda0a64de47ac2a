import type { Schedule, ScheduleItem } from '../../contract/index.ts'
import {
  type DeflatedPiece,
  deflatePiece,
  gzipPieces,
  storedPiece,
} from '../platform/http/gzip-pieces.ts'
import { COMPRESS_FROM_BYTES } from '../platform/http/json.ts'

// A billboard's schedule is made of pieces the caches hand out as the same arrays until they change:
// each event's plays of its sold slots (service.ts playsOf) and the campaigns' plays on air
// (advertisers/on-air/on-air.ts). A player asking again for the same window, while none of them
// changed, gets the same merged list and the same JSON text of it: a day of plays with campaigns is about
// 3,000 items and 900 KB, which is worth merging, sorting, writing and gzipping once, not on every
// fetch (players ask for the hour's window, domain/schedule.ts hourlyScheduleWindow, so every fetch
// of an hour is the same window). The answer is exactly what it would be computed afresh: nothing
// here adds to the caches' staleness.

/**
 * Items kept per server, over all windows (about 100 MB of lists, their JSON and its gzip at most):
 * a billboard's day of plays with campaigns is about 3,000, so a few dozen such days at once; beyond
 * that the windows are made again on their next fetch.
 */
const MAX_KEPT_ITEMS = 100_000

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
  let keptItems = 0
  return {
    /** The merged items of a window: the same array as last time when every piece is the same. */
    of(windowKey: string, pieces: readonly (readonly ScheduleItem[])[]): ScheduleItem[] {
      const hit = kept.get(windowKey)
      if (hit && sameArrays(hit.pieces, pieces)) return hit.items
      const items = mergeItems(pieces)
      if (hit) keptItems -= hit.items.length
      if (keptItems + items.length > MAX_KEPT_ITEMS) {
        kept.clear()
        keptItems = 0
      }
      kept.set(windowKey, { pieces, items })
      keptItems += items.length
      return items
    },
  }
}

type Written = { json: string; bytes?: Buffer; gzipped?: Promise<DeflatedPiece> }
const written = new WeakMap<readonly ScheduleItem[], Written>()

function writtenItems(items: readonly ScheduleItem[]): Written {
  let done = written.get(items)
  if (done === undefined) {
    done = { json: JSON.stringify(items) }
    written.set(items, done)
  }
  return done
}

/** The schedule's JSON up to its items, and after them. */
function around(schedule: Schedule): { head: string; tail: string } {
  const { items: _, ...head } = schedule
  return { head: `${JSON.stringify(head).slice(0, -1)},"items":`, tail: '}' }
}

/**
 * The schedule gzipped, its items compressed once per list (platform/http/gzip-pieces.ts), the rest
 * stored: the same text as the plain answer.
 */
async function scheduleGzip(schedule: Schedule): Promise<Buffer<ArrayBuffer>> {
  const done = writtenItems(schedule.items)
  done.gzipped ??= deflatePiece(done.json)
  const { head, tail } = around(schedule)
  return gzipPieces([storedPiece(head), await done.gzipped, storedPiece(tail)])
}

/**
 * The answer's body: gzipped when the client accepts it and it is large enough to gain
 * (platform/http/json.ts COMPRESS_FROM_BYTES), else the JSON's bytes (the items' encoded once).
 */
export async function scheduleBody(
  schedule: Schedule,
  acceptsGzip: boolean,
): Promise<{ body: string | Buffer<ArrayBuffer>; gzipped: boolean }> {
  if (acceptsGzip && writtenItems(schedule.items).json.length >= COMPRESS_FROM_BYTES) {
    return { body: await scheduleGzip(schedule), gzipped: true }
  }
  const done = writtenItems(schedule.items)
  done.bytes ??= Buffer.from(done.json)
  const { head, tail } = around(schedule)
  return { body: Buffer.concat([Buffer.from(head), done.bytes, Buffer.from(tail)]), gzipped: false }
}
