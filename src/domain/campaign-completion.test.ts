import { Temporal } from 'temporal-polyfill'
import { describe, expect, it } from 'vitest'
import { MISSED_AFTER_MS } from './ad-playout'
import { type CompletionFacts, completionReason, flightClosesAt } from './campaign-completion'

const at = (iso: string) => Temporal.Instant.from(iso).epochMilliseconds
const END = at('2027-05-09T00:00:00+02:00')

const live: CompletionFacts = {
  state: 'Live',
  endEpochMs: END,
  budgetCents: 10_000,
  provenCents: 2_100,
  cheapestPlayCents: 700,
  unsettled: false,
  zones: ['Europe/Paris'],
}

describe('when a campaign on air is completed', () => {
  it('goes on during its flight while its budget pays another play', () => {
    expect(completionReason(live, END - 3_600_000)).toBeNull()
  })

  it('ends at the end of its flight once the last day is over and settled', () => {
    const closes = END + MISSED_AFTER_MS
    expect(completionReason(live, closes - 1)).toBeNull()
    expect(completionReason(live, closes)).toBe('flight_ended')
    expect(completionReason({ ...live, state: 'Approved' }, closes)).toBe('flight_ended')
    // a proven play or a charge still to settle keeps it open
    expect(completionReason({ ...live, unsettled: true }, closes + 86_400_000)).toBeNull()
  })

  it('waits for the last local day to be over on every billboard', () => {
    // the flight ends at midnight in Paris, while New York still has six hours of that day
    const closes = flightClosesAt(END, ['Europe/Paris', 'America/New_York'])
    expect(closes).toBe(at('2027-05-09T00:00:00-04:00') + MISSED_AFTER_MS)
    const both = { ...live, zones: ['Europe/Paris', 'America/New_York'] }
    expect(completionReason(both, END + MISSED_AFTER_MS)).toBeNull()
    expect(completionReason(both, closes)).toBe('flight_ended')
    // a flight ending mid-day waits for that day's end
    const midDay = at('2027-05-08T15:00:00+02:00')
    expect(flightClosesAt(midDay, ['Europe/Paris'])).toBe(END + MISSED_AFTER_MS)
  })

  it('ends as soon as what is left of the budget cannot pay another play', () => {
    expect(completionReason({ ...live, provenCents: 9_300 }, END - 86_400_000)).toBeNull()
    expect(completionReason({ ...live, provenCents: 9_301 }, END - 86_400_000)).toBe('budget_spent')
    // proven beyond the budget (the charges are capped): spent all the same, settled or not
    expect(
      completionReason({ ...live, provenCents: 12_000, unsettled: true }, END - 86_400_000),
    ).toBe('budget_spent')
  })

  it('leaves the other states alone', () => {
    for (const state of ['Booked', 'Paused', 'Completed', 'Cancelled', 'Rejected'] as const) {
      expect(
        completionReason({ ...live, state, provenCents: 10_000 }, END + 86_400_000_0),
      ).toBeNull()
    }
  })

  it('never counts a campaign holding no play, or free plays, as spent', () => {
    expect(completionReason({ ...live, cheapestPlayCents: null, provenCents: 0 }, END)).toBeNull()
    expect(completionReason({ ...live, cheapestPlayCents: 0, provenCents: 10_000 }, END)).toBeNull()
  })
})
