import { Temporal } from 'temporal-polyfill'
import type { EventTiming } from './event'
import { slotDate, slotStartEpochMs } from './slots'

// spec §4 and §9: an order is confirmed instantly, or its remaining dates are confirmed a few days
// before they play.

export const CONFIRMATION_DAYS_BEFORE = 3

export type Confirmation =
  | { instant: true }
  | { instant: false; confirmationDateEpochMs: number; days: number }

export type ConfirmationInput = {
  event: EventTiming
  timeZoneId: string
  slotNumbers: readonly number[]
  minPresaleSlotEpochMs: number | null
}

/**
 * spec §9: instant when no selected slot starts at or after the minimum presale slot; otherwise
 * the confirmation date is 3 days before the earliest such slot's date, where a slot's date is
 * event start plus floor(slotNumber / shouts per day) calendar days.
 */
export function confirmationFor({
  event,
  timeZoneId,
  slotNumbers,
  minPresaleSlotEpochMs,
}: ConfirmationInput): Confirmation {
  if (minPresaleSlotEpochMs === null) return { instant: true }
  const presale = slotNumbers.filter(
    (n) => slotStartEpochMs(event, timeZoneId, n) >= minPresaleSlotEpochMs,
  )
  if (presale.length === 0) return { instant: true }
  const earliest = Math.min(...presale)
  const confirmationDate = slotDate(event, timeZoneId, earliest).subtract({
    days: CONFIRMATION_DAYS_BEFORE,
  })
  return {
    instant: false,
    confirmationDateEpochMs: confirmationDate.epochMilliseconds,
    days: CONFIRMATION_DAYS_BEFORE,
  }
}

/** spec §9: instant confirmation covers the whole days between now and the minimum presale slot. */
export function instantConfirmationDays(
  nowEpochMs: number,
  minPresaleSlotEpochMs: number | null,
): number | null {
  if (minPresaleSlotEpochMs === null) return null
  const span = Temporal.Instant.fromEpochMilliseconds(nowEpochMs).until(
    Temporal.Instant.fromEpochMilliseconds(minPresaleSlotEpochMs),
    { largestUnit: 'hours' },
  )
  return Math.max(0, Math.floor(span.total({ unit: 'hours' }) / 24))
}

// spec §3 confirmation code: in order-rules.ts (no Temporal), re-exported here where it belongs.
export { confirmationCode } from './order-rules'
