import { Temporal } from 'temporal-polyfill'
import { MISSED_AFTER_MS } from './ad-playout'
import type { CampaignState } from './campaign'

// When a campaign on air is over (api-v1 "Advertisers": Approved → Live → Completed): at the end of
// its flight once its last billboard-local day is settled, or as soon as what is left of its budget
// cannot pay another play. The reason is a code the campaign page and the console translate.

export const COMPLETION_REASONS = ['flight_ended', 'budget_spent'] as const
export type CompletionReason = (typeof COMPLETION_REASONS)[number]

/**
 * When the flight's last day is over on every one of its billboards, with MISSED_AFTER_MS more for
 * its late proofs (the moment the daily charge may close that day, ad-settlement.ts).
 */
export function flightClosesAt(endEpochMs: number, zones: readonly string[]): number {
  let closes = endEpochMs + MISSED_AFTER_MS
  for (const zone of zones) {
    // the flight ends at endEpochMs (exclusive): its last play is on the local day of the ms before
    const lastDay = Temporal.Instant.fromEpochMilliseconds(endEpochMs - 1)
      .toZonedDateTimeISO(zone)
      .toPlainDate()
    const over = lastDay.add({ days: 1 }).toZonedDateTime({ timeZone: zone }).epochMilliseconds
    closes = Math.max(closes, over + MISSED_AFTER_MS)
  }
  return closes
}

export type CompletionFacts = {
  state: CampaignState
  endEpochMs: number
  budgetCents: number
  /** What its proven plays cost, charged or still to charge (each day capped by the budget). */
  provenCents: number
  /** The cheapest play it holds; null when it holds none. */
  cheapestPlayCents: number | null
  /** A proven play not charged yet, or a charge not settled yet. */
  unsettled: boolean
  /** The time zones of its billboards. */
  zones: readonly string[]
}

/** Why the campaign is over at `nowEpochMs`, or null while it goes on (or is not on air). */
export function completionReason(c: CompletionFacts, nowEpochMs: number): CompletionReason | null {
  if (c.state !== 'Approved' && c.state !== 'Live') return null
  if (
    c.cheapestPlayCents !== null &&
    c.cheapestPlayCents > 0 &&
    c.budgetCents - Math.min(c.provenCents, c.budgetCents) < c.cheapestPlayCents
  ) {
    return 'budget_spent'
  }
  if (!c.unsettled && nowEpochMs >= flightClosesAt(c.endEpochMs, c.zones)) return 'flight_ended'
  return null
}
