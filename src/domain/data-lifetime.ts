import { type EventTiming, eventWindowEpochMs } from './event'
import { isSlotNumberOfEvent, slotEndEpochMs } from './slots'

// An order's personal data (contact details, the texts and photo of its shout) is kept while its
// slots are still to play and for a lifetime after the last one ends; then it is forgotten and only
// the accounting stays (docs/privacy.md).

/**
 * When an order's personal data goes: the end of its last slot plus the lifetime. A slot number the
 * event no longer has (its times changed after the order) counts as the event's end. Null without slots.
 */
export function personalDataUntilEpochMs(
  event: EventTiming,
  timeZoneId: string,
  slotNumbers: readonly number[],
  lifetimeMs: number,
): number | null {
  if (slotNumbers.length === 0) return null
  const last = slotNumbers.reduce((a, b) => Math.max(a, b))
  const end = isSlotNumberOfEvent(event, timeZoneId, last)
    ? slotEndEpochMs(event, timeZoneId, last)
    : eventWindowEpochMs(event, timeZoneId).endEpochMs
  return end + lifetimeMs
}
