import { describe, expect, it } from 'vitest'
import {
  mayReceivePlayAlerts,
  PLAY_ALERT_LEAD_MS,
  PLAYED_ALERT_WITHIN_MS,
  type PlayAlertOrder,
  playAlertsDue,
  playAlertsEndEpochMs,
} from './play-alerts'

const MIN = 60_000
const T = Date.UTC(2027, 4, 7, 16, 0) // slot 72 of an event in Paris: 18:00 local
const slots = [
  { slotNumber: 72, startEpochMs: T, endEpochMs: T + 15 * MIN },
  { slotNumber: 76, startEpochMs: T + 60 * MIN, endEpochMs: T + 75 * MIN },
]
const order = (over: Partial<PlayAlertOrder> = {}): PlayAlertOrder => ({
  orderState: 'Confirmed',
  slots,
  plays: [],
  ...over,
})
const keys = (o: PlayAlertOrder, now: number) => playAlertsDue(o, now).map((a) => a.key)

describe('play alerts: what a shopper is told, and when', () => {
  it('says nothing until five minutes before a slot, then "plays soon" until it begins', () => {
    expect(keys(order(), T - PLAY_ALERT_LEAD_MS - 1)).toEqual([])
    expect(keys(order(), T - PLAY_ALERT_LEAD_MS)).toEqual(['soon:72'])
    expect(keys(order(), T - 1)).toEqual(['soon:72'])
    // never late: once the slot began, "plays in 5 minutes" would be wrong
    expect(keys(order(), T)).toEqual([])
  })

  it('names the slot start and expires when the slot begins', () => {
    const [soon] = playAlertsDue(order(), T - 2 * MIN)
    expect(soon).toEqual({
      kind: 'soon',
      slotNumber: 72,
      key: 'soon:72',
      atEpochMs: T,
      dueEpochMs: T - PLAY_ALERT_LEAD_MS,
      expiresEpochMs: T,
    })
  })

  it('says "it played" once the first play of a slot is proven, at the first proof', () => {
    const plays = [
      { slotNumber: 72, startedAtEpochMs: T + 4 * MIN },
      { slotNumber: 72, startedAtEpochMs: T + 1000 },
    ]
    expect(keys(order({ plays }), T + 500)).toEqual([])
    const due = playAlertsDue(order({ plays }), T + 5 * MIN)
    expect(due.map((a) => [a.key, a.atEpochMs])).toEqual([['played:72', T + 1000]])
    // still due after the slot, for an hour: a late proof is still news
    expect(keys(order({ plays }), T + 15 * MIN + PLAYED_ALERT_WITHIN_MS - 1)).toEqual(['played:72'])
    expect(keys(order({ plays }), T + 15 * MIN + PLAYED_ALERT_WITHIN_MS)).toEqual([])
  })

  it('does not count a proof whose time has not come (a billboard clock ahead of ours)', () => {
    const plays = [{ slotNumber: 72, startedAtEpochMs: T + 10 * MIN }]
    expect(keys(order({ plays }), T + 5 * MIN)).toEqual([])
  })

  it('tells each slot of an order of two slots on its own', () => {
    const plays = [{ slotNumber: 72, startedAtEpochMs: T + 30_000 }]
    expect(keys(order({ plays }), T + 60 * MIN - PLAY_ALERT_LEAD_MS)).toEqual([
      'played:72',
      'soon:76',
    ])
  })

  it.each(['UnderReview', 'Cancelled', 'Failed', 'Processing'] as const)(
    'tells a %s order nothing',
    (orderState) => {
      const plays = [{ slotNumber: 72, startedAtEpochMs: T }]
      expect(keys(order({ orderState, plays }), T - 2 * MIN)).toEqual([])
      expect(keys(order({ orderState, plays }), T + 2 * MIN)).toEqual([])
    },
  )

  it('ends an hour after the last slot; a cancelled or failed order never gets anything again', () => {
    expect(playAlertsEndEpochMs(slots)).toBe(T + 75 * MIN + PLAYED_ALERT_WITHIN_MS)
    expect(playAlertsEndEpochMs([])).toBe(0)
    expect(mayReceivePlayAlerts('Confirmed')).toBe(true)
    expect(mayReceivePlayAlerts('UnderReview')).toBe(true)
    expect(mayReceivePlayAlerts('Cancelled')).toBe(false)
    expect(mayReceivePlayAlerts('Failed')).toBe(false)
  })
})
