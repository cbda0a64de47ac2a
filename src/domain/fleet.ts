import { CLOCK_TOLERANCE_MS } from './billboard-health'

// The console's fleet (docs/console.md, Billboards): which billboards need someone first, and the
// search by name, city or id.

export type FleetState = 'playing' | 'stale' | 'offline' | 'never'

export type FleetBillboard = {
  deviceId: string
  location: string
  city: string
  state: FleetState
  clockOffsetMs: number | null
  /** files the web player failed to cache, null without a heartbeat */
  filesFailed: number | null
  /** sold plays due in the hour ahead */
  nextHourDue: number
}

/**
 * How soon a billboard needs someone, 0 first: offline with sold plays in the hour ahead (money is
 * being lost), then late to report, then playing with its clock off or files failing, then offline
 * with nothing sold soon, never connected, and last the ones playing well.
 */
export function troubleRank(b: FleetBillboard): number {
  if (b.state === 'offline' && b.nextHourDue > 0) return 0
  if (b.state === 'stale') return 1
  const clockOff = b.clockOffsetMs !== null && Math.abs(b.clockOffsetMs) > CLOCK_TOLERANCE_MS
  if (b.state === 'playing' && (clockOff || (b.filesFailed ?? 0) > 0)) return 2
  if (b.state === 'offline') return 3
  if (b.state === 'never') return 4
  return 5
}

/** The fleet, trouble first; within a rank by place and id. */
export function troubleFirst<T extends FleetBillboard>(fleet: readonly T[]): T[] {
  return [...fleet].sort(
    (a, b) =>
      troubleRank(a) - troubleRank(b) ||
      a.location.localeCompare(b.location) ||
      a.deviceId.localeCompare(b.deviceId),
  )
}

/** Whether a billboard matches a search: every word in its name, city or id, any case or accent. */
export function fleetMatches(b: FleetBillboard, search: string): boolean {
  const fold = (text: string) =>
    text
      .normalize('NFD')
      .replace(/\p{Diacritic}/gu, '')
      .toLowerCase()
  const haystack = fold(`${b.location} ${b.city} ${b.deviceId}`)
  return fold(search)
    .split(/\s+/)
    .filter(Boolean)
    .every((word) => haystack.includes(word))
}

/** How many billboards are in each state. */
export function fleetCounts(fleet: readonly FleetBillboard[]): Record<FleetState, number> {
  const counts: Record<FleetState, number> = { playing: 0, stale: 0, offline: 0, never: 0 }
  for (const b of fleet) counts[b.state]++
  return counts
}
