import { Temporal } from 'temporal-polyfill'
import { MISSED_AFTER_MS } from './ad-playout'

// The daily charge of a campaign's proven plays (api-v1 "Advertisers": proven plays are what the
// advertiser pays, never more than the budget). Plays are counted by their billboard's local day;
// a day is charged once, after it has ended on each billboard that proved a play that day and its
// proofs have had time to arrive (MISSED_AFTER_MS), under one idempotency key per campaign and day,
// so a charge repeated after a crash or by a retry is made once by the payment provider.

/** A proven play not charged yet. */
export type ChargeablePlay = { deviceId: string; startEpochMs: number; costCents: number }

export type DayToCharge<P extends ChargeablePlay = ChargeablePlay> = {
  /** The billboard-local date, yyyy-MM-dd. */
  day: string
  plays: P[]
  /** What the day's proven plays cost, before the budget's cap. */
  amountCents: number
}

const localDay = (epochMs: number, zone: string) =>
  Temporal.Instant.fromEpochMilliseconds(epochMs).toZonedDateTimeISO(zone).toPlainDate()

/**
 * The days whose proven plays may be charged at `nowEpochMs`, first to last: each day over on every
 * billboard that has a proven play that day, with MISSED_AFTER_MS more for late proofs.
 */
export function daysToCharge<P extends ChargeablePlay>(
  plays: readonly P[],
  zoneOf: (deviceId: string) => string,
  nowEpochMs: number,
): DayToCharge<P>[] {
  const days = new Map<string, DayToCharge<P> & { closesAtEpochMs: number }>()
  for (const play of plays) {
    const zone = zoneOf(play.deviceId)
    const date = localDay(play.startEpochMs, zone)
    const closes =
      date.add({ days: 1 }).toZonedDateTime({ timeZone: zone }).epochMilliseconds + MISSED_AFTER_MS
    const key = date.toString()
    const found = days.get(key) ?? { day: key, plays: [], amountCents: 0, closesAtEpochMs: 0 }
    found.plays.push(play)
    found.amountCents += play.costCents
    found.closesAtEpochMs = Math.max(found.closesAtEpochMs, closes)
    days.set(key, found)
  }
  return [...days.values()]
    .filter((d) => d.closesAtEpochMs <= nowEpochMs)
    .sort((a, b) => a.day.localeCompare(b.day))
    .map(({ day, plays: n, amountCents }) => ({ day, plays: n, amountCents }))
}

/** What a day's charge takes: its plays' cost, never more than the budget leaves beside the others. */
export function cappedCharge(
  amountCents: number,
  budgetCents: number,
  chargedCents: number,
): number {
  return Math.max(0, Math.min(amountCents, budgetCents - chargedCents))
}

/** The one idempotency key of a campaign's charge for a day (the payment provider's key). */
export const dailyChargeKey = (campaignId: string, day: string): string =>
  `campaign-${campaignId}-${day}`

/**
 * The key of a declined day's charge tried again on a replaced card: one per day and card, so a
 * replacement repeated (a retry, a second instance) tries the day once, and a later card once more.
 */
export const cardRetryChargeKey = (campaignId: string, day: string, cardRef: string): string =>
  `${dailyChargeKey(campaignId, day)}-card-${cardRef}`
