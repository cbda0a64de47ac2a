import { Temporal } from 'temporal-polyfill'
import { zonedDateTimeAt } from './dates'
import {
  type EventTiming,
  eventStart,
  eventWindowEpochMs,
  shoutsPerDay,
  slotsPerDevice,
} from './event'
import { RuleError } from './problems'

// spec §3 slot index: slot numbers count from the event start instant (in the device's zone) in
// steps of slotWidthMS of real elapsed time, so across a daylight-saving change a slot still lasts
// exactly slotWidthMS and its label shows the clock on the wall at that moment.

/** spec §3: the slot number at an instant, or null outside [event start, event end). */
export function slotNumberAt(
  event: EventTiming,
  timeZoneId: string,
  epochMs: number,
): number | null {
  const { startEpochMs, endEpochMs } = eventWindowEpochMs(event, timeZoneId)
  if (epochMs < startEpochMs || epochMs >= endEpochMs) return null
  const slotNumber = Math.floor((epochMs - startEpochMs) / event.slotWidthMS)
  // a trailing part-slot shorter than slotWidthMS is not a slot (slots per device rounds down)
  return slotNumber < slotsPerDevice(event, timeZoneId) ? slotNumber : null
}

export function isSlotNumberOfEvent(
  event: EventTiming,
  timeZoneId: string,
  slotNumber: number,
): boolean {
  return (
    Number.isInteger(slotNumber) &&
    slotNumber >= 0 &&
    slotNumber < slotsPerDevice(event, timeZoneId)
  )
}

function assertSlotNumber(event: EventTiming, timeZoneId: string, slotNumber: number): void {
  if (!isSlotNumberOfEvent(event, timeZoneId, slotNumber)) {
    throw new RuleError({ code: 'slot_not_in_event', params: { slot: slotNumber } })
  }
}

export function slotStartEpochMs(
  event: EventTiming,
  timeZoneId: string,
  slotNumber: number,
): number {
  assertSlotNumber(event, timeZoneId, slotNumber)
  return eventWindowEpochMs(event, timeZoneId).startEpochMs + slotNumber * event.slotWidthMS
}

export function slotEndEpochMs(event: EventTiming, timeZoneId: string, slotNumber: number): number {
  return slotStartEpochMs(event, timeZoneId, slotNumber) + event.slotWidthMS
}

export function slotStart(
  event: EventTiming,
  timeZoneId: string,
  slotNumber: number,
): Temporal.ZonedDateTime {
  return zonedDateTimeAt(slotStartEpochMs(event, timeZoneId, slotNumber), timeZoneId)
}

const languageOf = (locale: string): string => locale.toLowerCase().split(/[-_]/)[0] ?? 'en'
const pad2 = (n: number): string => String(n).padStart(2, '0')

function clock12(time: Temporal.ZonedDateTime): string {
  const hour = time.hour % 12 === 0 ? 12 : time.hour % 12
  return `${hour}:${pad2(time.minute)}`
}

/**
 * spec §3: slot range label, lowercase 'h:mm - h:mma' ('6:00 - 6:15pm'); fr and de read a
 * 24-hour clock ('18:00 - 18:15'). Both ends are the real wall-clock time in the device's zone.
 */
export function slotLabel(
  event: EventTiming,
  timeZoneId: string,
  slotNumber: number,
  locale = 'en',
): string {
  const start = slotStart(event, timeZoneId, slotNumber)
  const end = zonedDateTimeAt(start.epochMilliseconds + event.slotWidthMS, timeZoneId)
  if (languageOf(locale) === 'en') {
    return `${clock12(start)} - ${clock12(end)}${end.hour < 12 ? 'am' : 'pm'}`
  }
  const clock24 = (t: Temporal.ZonedDateTime) => `${pad2(t.hour)}:${pad2(t.minute)}`
  return `${clock24(start)} - ${clock24(end)}`
}

/** True when the wall-clock time occurs twice in the zone (the repeated hour of a fall-back day). */
function isRepeatedWallClock(time: Temporal.ZonedDateTime): boolean {
  const wall = time.toPlainDateTime()
  const earlier = wall.toZonedDateTime(time.timeZoneId, { disambiguation: 'earlier' })
  const later = wall.toZonedDateTime(time.timeZoneId, { disambiguation: 'later' })
  return earlier.epochMilliseconds !== later.epochMilliseconds
}

/**
 * The short zone name to show beside a slot label ('EDT', 'EST') when the label alone is
 * ambiguous or jumps: the slot starts in a repeated hour or a daylight-saving change falls inside
 * it. null for every other slot, so most labels stay 'h:mm - h:mma'.
 */
export function slotZoneNote(
  event: EventTiming,
  timeZoneId: string,
  slotNumber: number,
  locale = 'en',
): string | null {
  const start = slotStart(event, timeZoneId, slotNumber)
  const end = zonedDateTimeAt(start.epochMilliseconds + event.slotWidthMS, timeZoneId)
  if (!isRepeatedWallClock(start) && start.offset === end.offset) return null
  const parts = new Intl.DateTimeFormat(locale, {
    timeZone: timeZoneId,
    timeZoneName: 'short',
  }).formatToParts(start.epochMilliseconds)
  return parts.find((p) => p.type === 'timeZoneName')?.value ?? start.offset
}

/** The local calendar date on which the slot starts, in the device's zone. */
export function slotLocalDate(
  event: EventTiming,
  timeZoneId: string,
  slotNumber: number,
): Temporal.PlainDate {
  return slotStart(event, timeZoneId, slotNumber).toPlainDate()
}

// spec §3: time-of-day bands of the select-shouts screen, by the slot's local start hour.
export const TIME_OF_DAY_BANDS = [
  { id: 'EarlyMorning', label: 'Early Morning', startHour: 0, endHour: 9 },
  { id: 'Morning', label: 'Morning', startHour: 9, endHour: 12 },
  { id: 'Afternoon', label: 'Afternoon', startHour: 12, endHour: 17 },
  { id: 'Evening', label: 'Evening', startHour: 17, endHour: 24 },
] as const
export type TimeOfDayBand = (typeof TIME_OF_DAY_BANDS)[number]['id']

export function bandOfHour(hour: number): TimeOfDayBand {
  const band = TIME_OF_DAY_BANDS.find((b) => hour >= b.startHour && hour < b.endHour)
  if (!band) throw new RuleError({ code: 'bad_hour' })
  return band.id
}

export function timeOfDayBand(
  event: EventTiming,
  timeZoneId: string,
  slotNumber: number,
): TimeOfDayBand {
  return bandOfHour(slotStart(event, timeZoneId, slotNumber).hour)
}

// spec §5/§9: a slot must be bought at least 5 hours before it plays.
export const PURCHASE_CUTOFF_HOURS = 5
export const PURCHASE_CUTOFF_MS = PURCHASE_CUTOFF_HOURS * 3_600_000

/** The last instant at which a slot starting at slotStartEpochMs can be bought. */
// Hours on the time line are exact (an Instant has no zone, so no daylight-saving day): plain
// arithmetic, as Temporal.Instant#add({hours}) would give, without its cost on the hottest read.
export function purchaseDeadlineEpochMs(slotStartEpochMs: number): number {
  return slotStartEpochMs - PURCHASE_CUTOFF_MS
}

export function isPurchasable(slotStartEpochMs: number, nowEpochMs: number): boolean {
  return nowEpochMs <= purchaseDeadlineEpochMs(slotStartEpochMs)
}

/** The earliest slot start that can still be bought now. */
export function firstPurchasableEpochMs(nowEpochMs: number): number {
  return nowEpochMs + PURCHASE_CUTOFF_MS
}

// spec §5: at least 2 slots recommended — a notice, never a block.
export const RECOMMENDED_MIN_SLOTS = 2

export function meetsRecommendedMinimum(count: number): boolean {
  return count >= RECOMMENDED_MIN_SLOTS
}

/** First slot number whose start is at or after the instant (may be past the event). */
function firstSlotStartingAtOrAfter(
  event: EventTiming,
  timeZoneId: string,
  epochMs: number,
): number {
  const { startEpochMs } = eventWindowEpochMs(event, timeZoneId)
  return Math.max(0, Math.ceil((epochMs - startEpochMs) / event.slotWidthMS))
}

export type OpenSlotsQuery = {
  event: EventTiming
  timeZoneId: string
  startEpochMs: number
  endEpochMs: number
  nowEpochMs: number
  soldSlots: Iterable<number>
}

/**
 * api-v1 slot search: the slot numbers starting inside [startEpochMs, endEpochMs) that are part
 * of the event in the device's zone, not sold, and start at least 5 hours after now.
 */
export function openSlotNumbers(query: OpenSlotsQuery): number[] {
  const { from, untilExclusive } = openSlotRange(query)
  const sold = new Set(query.soldSlots)
  const open: number[] = []
  for (let slotNumber = from; slotNumber < untilExclusive; slotNumber++) {
    if (!sold.has(slotNumber)) open.push(slotNumber)
  }
  return open
}

/**
 * The slot numbers [from, untilExclusive) that a search may offer before sold slots are taken out:
 * inside the event, inside the asked window and past the 5-hour cut-off. Two searches with the same
 * range and the same sold slots have the same answer (the server keeps it serialised).
 */
export function openSlotRange(query: Omit<OpenSlotsQuery, 'soldSlots'>): {
  from: number
  untilExclusive: number
} {
  const { event, timeZoneId, startEpochMs, endEpochMs, nowEpochMs } = query
  const from = firstSlotStartingAtOrAfter(
    event,
    timeZoneId,
    Math.max(startEpochMs, firstPurchasableEpochMs(nowEpochMs)),
  )
  const untilExclusive = Math.min(
    slotsPerDevice(event, timeZoneId),
    firstSlotStartingAtOrAfter(event, timeZoneId, endEpochMs),
  )
  return { from, untilExclusive: Math.max(from, untilExclusive) }
}

/**
 * api-v1 slot search: minAvailableSlotEpochMs is the first slot start that can still be bought
 * (null when none can), maxAvailableSlotEpochMs the start of the event's last slot.
 */
export function availabilityWindow(
  event: EventTiming,
  timeZoneId: string,
  nowEpochMs: number,
): { minAvailableSlotEpochMs: number | null; maxAvailableSlotEpochMs: number } {
  const count = slotsPerDevice(event, timeZoneId)
  const { startEpochMs } = eventWindowEpochMs(event, timeZoneId)
  const first = firstSlotStartingAtOrAfter(event, timeZoneId, firstPurchasableEpochMs(nowEpochMs))
  return {
    minAvailableSlotEpochMs: first < count ? startEpochMs + first * event.slotWidthMS : null,
    maxAvailableSlotEpochMs: startEpochMs + (count - 1) * event.slotWidthMS,
  }
}

/** spec §9: the day index of a slot, floor(slotNumber / shouts per day). */
export function slotDayIndex(event: Pick<EventTiming, 'slotWidthMS'>, slotNumber: number): number {
  return Math.floor(slotNumber / shoutsPerDay(event))
}

/** spec §9: a slot's date is event start plus floor(slotNumber / shouts per day) calendar days. */
export function slotDate(
  event: EventTiming,
  timeZoneId: string,
  slotNumber: number,
): Temporal.ZonedDateTime {
  return eventStart(event, timeZoneId).add({ days: slotDayIndex(event, slotNumber) })
}

/**
 * The slot numbers that start on a local calendar date in the device's zone, in order:
 * 96 of 15 minutes on a normal day, 92 on a spring-forward day, 100 on a fall-back day.
 */
export function slotsOfDay(
  event: EventTiming,
  timeZoneId: string,
  date: Temporal.PlainDate | string,
): number[] {
  const day = Temporal.PlainDate.from(date)
  const dayStart = day.toZonedDateTime({ timeZone: timeZoneId }).epochMilliseconds
  const nextDayStart = day
    .add({ days: 1 })
    .toZonedDateTime({ timeZone: timeZoneId }).epochMilliseconds
  const from = firstSlotStartingAtOrAfter(event, timeZoneId, dayStart)
  const untilExclusive = Math.min(
    slotsPerDevice(event, timeZoneId),
    firstSlotStartingAtOrAfter(event, timeZoneId, nextDayStart),
  )
  const slots: number[] = []
  for (let slotNumber = from; slotNumber < untilExclusive; slotNumber++) slots.push(slotNumber)
  return slots
}
