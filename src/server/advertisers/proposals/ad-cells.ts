import {
  type AdTimeBillboard,
  adTimePieces,
  allAdCells,
  openAdCells,
} from '../../../domain/ad-time.ts'
import type { TimeOfDayBand } from '../../../domain/slots.ts'
import type { Queryable } from '../../platform/db/client.ts'
import { heldStarts } from './repo.ts'

// The ad cells still open on billboards over a long window (ad-time.ts openAdCells), worked out a
// piece of the window and a billboard at a time, the event loop served between two: a quarter on
// five billboards is about a million cells, a second of work that must not stall every other
// request (docs/performance.md "Advertisers' planning"). Each piece reads only the plays held in
// it, so a fully booked quarter is never one read of a million rows either.

/** Two days of one billboard's cells: half a millisecond of work between two breaths. */
const PIECE_MS = 2 * 86_400_000
/** Plays checked between two breaths (allAdCells). */
const CHECKED_AT_ONCE = 2_000

/** Lets the event loop answer what waits (timers, sockets) before the next piece. */
export const breathe = (): Promise<void> => new Promise((resolve) => setImmediate(resolve))

export type CellsRequest = {
  startEpochMs: number
  endEpochMs: number
  dayparts: readonly TimeOfDayBand[]
  /** No cell before this (now plus the lead the schedule rules ask). */
  notBeforeEpochMs: number
}

/**
 * Calls `take` with each billboard's open cells of each piece of the window, in time order (the
 * pieces of one billboard, put end to end, are its open cells over the window, sorted).
 */
export async function eachOpenCells(
  db: Queryable,
  billboards: readonly { deviceId: string; time: AdTimeBillboard }[],
  request: CellsRequest,
  defaultSharePercent: number,
  take: (deviceId: string, cells: readonly number[]) => void,
): Promise<void> {
  const from = Math.max(request.startEpochMs, request.notBeforeEpochMs)
  const deviceIds = billboards.map((b) => b.deviceId)
  for (const [startEpochMs, endEpochMs] of adTimePieces(from, request.endEpochMs, PIECE_MS)) {
    const held = await heldStarts(db, deviceIds, startEpochMs, endEpochMs)
    for (const b of billboards) {
      const cells = openAdCells(
        b.time,
        {
          startEpochMs,
          endEpochMs,
          dayparts: request.dayparts,
          notBeforeEpochMs: from,
          taken: held.get(b.deviceId) ?? new Set(),
        },
        defaultSharePercent,
      )
      take(b.deviceId, cells)
      await breathe()
    }
  }
}

/**
 * Each billboard's open cells over the window, sorted, in a typed array: a quarter of five
 * billboards is over a million numbers, which as arrays of objects the collector would have to
 * walk (pauses of a tenth of a second measured with a few proposals at once).
 */
export async function openCellsOf(
  db: Queryable,
  billboards: readonly { deviceId: string; time: AdTimeBillboard }[],
  request: CellsRequest,
  defaultSharePercent: number,
): Promise<Map<string, Float64Array>> {
  const open = new Map(billboards.map((b) => [b.deviceId, { cells: new Float64Array(4096), n: 0 }]))
  await eachOpenCells(db, billboards, request, defaultSharePercent, (deviceId, cells) => {
    const into = open.get(deviceId) as { cells: Float64Array; n: number }
    if (into.n + cells.length > into.cells.length) {
      const larger = new Float64Array(Math.max(2 * into.cells.length, into.n + cells.length))
      larger.set(into.cells.subarray(0, into.n))
      into.cells = larger
    }
    into.cells.set(cells, into.n)
    into.n += cells.length
  })
  return new Map([...open].map(([deviceId, { cells, n }]) => [deviceId, cells.subarray(0, n)]))
}

/** How many cells each billboard has open over the window. */
export async function openCellCounts(
  db: Queryable,
  billboards: readonly { deviceId: string; time: AdTimeBillboard }[],
  request: CellsRequest,
  defaultSharePercent: number,
): Promise<Map<string, number>> {
  const counts = new Map<string, number>(billboards.map((b) => [b.deviceId, 0]))
  await eachOpenCells(db, billboards, request, defaultSharePercent, (deviceId, cells) => {
    counts.set(deviceId, (counts.get(deviceId) ?? 0) + cells.length)
  })
  return counts
}

/** Whether every start (sorted) is still one of the billboard's ad cells, a few at a time. */
export async function stillAdCells(
  time: AdTimeBillboard,
  starts: readonly number[],
  defaultSharePercent: number,
): Promise<boolean> {
  for (let i = 0; i < starts.length; i += CHECKED_AT_ONCE) {
    if (!allAdCells(time, starts.slice(i, i + CHECKED_AT_ONCE), defaultSharePercent)) return false
    await breathe()
  }
  return true
}
