// The player's timeline: what a billboard shows at a given instant, from the schedule's
// items. No Temporal and no time zones here: items carry absolute instants, so the player decides by
// the wall clock alone and keeps deciding with the network down.

export type TimedItem = { startEpochMs: number; endEpochMs: number }

/** The item playing at `atEpochMs` (start inclusive, end exclusive), or null: the house card shows. */
export function itemAt<T extends TimedItem>(items: readonly T[], atEpochMs: number): T | null {
  // Items are sorted by start; the last one starting at or before the instant is the candidate.
  let low = 0
  let high = items.length - 1
  let found: T | null = null
  while (low <= high) {
    const mid = (low + high) >> 1
    const item = items[mid] as T
    if (item.startEpochMs <= atEpochMs) {
      found = item
      low = mid + 1
    } else high = mid - 1
  }
  return found && atEpochMs < found.endEpochMs ? found : null
}

/** The next instant after `atEpochMs` at which what shows changes (a play starts or ends), or null. */
export function nextChangeAt(items: readonly TimedItem[], atEpochMs: number): number | null {
  let next: number | null = null
  for (const item of items) {
    for (const edge of [item.startEpochMs, item.endEpochMs]) {
      if (edge > atEpochMs && (next === null || edge < next)) next = edge
    }
    // sorted by start: once an item starts after the best edge found, none later can beat it
    if (next !== null && item.startEpochMs > next) break
  }
  return next
}

/** How far into an item the player is (a video joined mid-play seeks there), in seconds. */
export function offsetSeconds(item: TimedItem, atEpochMs: number): number {
  return Math.max(0, (atEpochMs - item.startEpochMs) / 1000)
}

/**
 * The schedule a player keeps after a new fetch: the fresh items replace every kept item overlapping
 * the fetched window (an order cancelled since is gone), kept items outside it stay (a longer window
 * fetched earlier still plays offline), and items over before `dropBeforeEpochMs` are forgotten.
 */
export function mergeSchedule<T extends TimedItem>(
  kept: readonly T[],
  fresh: { fromEpochMs: number; toEpochMs: number; items: readonly T[] },
  dropBeforeEpochMs: number,
): T[] {
  const outside = kept.filter(
    (item) =>
      (item.endEpochMs <= fresh.fromEpochMs || item.startEpochMs >= fresh.toEpochMs) &&
      item.endEpochMs > dropBeforeEpochMs,
  )
  return [...outside, ...fresh.items].sort((a, b) => a.startEpochMs - b.startEpochMs)
}

/** What a window shows, in order: each play, and the house card in the time between. */
export type PlayoutSegment<T extends TimedItem> =
  | { kind: 'play'; item: T; startEpochMs: number; endEpochMs: number }
  | { kind: 'house'; startEpochMs: number; endEpochMs: number }

/**
 * The window [fromEpochMs, toEpochMs) cut into what shows: each item (clipped to the window; an item
 * that overlaps the one before it starts where that one ends) and the house card between. With
 * `houseChunkMs`, a house-card stretch is cut at the wall clock's whole multiples of it, so no piece
 * is longer and the cuts stay where they were when the window moves on (a SMIL player that loads the
 * playlist mid-stretch joins a short piece, and a later playlist repeats the same pieces). Times are
 * whole multiples of `unitMs` (SMIL's wallclock has whole seconds); a piece that rounds to nothing is
 * dropped.
 */
export function playoutSegments<T extends TimedItem>(
  items: readonly T[],
  window: { fromEpochMs: number; toEpochMs: number },
  options: { houseChunkMs?: number; unitMs?: number } = {},
): PlayoutSegment<T>[] {
  const unit = options.unitMs ?? 1
  const round = (ms: number) => Math.round(ms / unit) * unit
  const chunk = options.houseChunkMs
  const segments: PlayoutSegment<T>[] = []
  const house = (from: number, to: number) => {
    let at = from
    while (at < to) {
      const cut = chunk ? Math.min(to, (Math.floor(at / chunk) + 1) * chunk) : to
      segments.push({ kind: 'house', startEpochMs: at, endEpochMs: cut })
      at = cut
    }
  }
  const end = round(window.toEpochMs)
  let at = round(window.fromEpochMs)
  for (const item of items) {
    const start = Math.max(round(item.startEpochMs), at)
    const stop = Math.min(round(item.endEpochMs), end)
    if (stop <= start) continue
    house(at, start)
    segments.push({ kind: 'play', item, startEpochMs: start, endEpochMs: stop })
    at = stop
  }
  house(at, end)
  return segments
}
