import type { OrderState } from './order-state'

// "Tell me when it plays": the alerts a shopper who asked for them receives on their phone (Web
// Push), and when. Pure: the server's `play-alerts` job asks this rule, with the clock's now, which
// alerts are due for an order, and sends each at most once (its key).
//
// - `soon`: 5 minutes before each bought slot begins ("Your shout plays at 6:01 pm on …"). Due from
//   the lead until the slot begins; after that it would announce the past, so it is never sent late.
// - `played`: once the billboard proved the first play of a slot ("It played!"). Due from that proof
//   until an hour after the slot's end; a proof that comes later than that is old news.
// Only a Confirmed order is told anything: not one still under review (it may never play), never a
// cancelled or failed one.

/** How long before a slot begins its `soon` alert is due. */
export const PLAY_ALERT_LEAD_MS = 5 * 60_000
/** How long after a slot ends its `played` alert may still go out (proofs arrive late). */
export const PLAYED_ALERT_WITHIN_MS = 60 * 60_000

export type PlayAlertKind = 'soon' | 'played'

export type PlayAlert = {
  kind: PlayAlertKind
  slotNumber: number
  /** Stable per order: the same alert has the same key on every pass and every instance. */
  key: string
  /** The instant the alert speaks of: the slot's start (`soon`), the first proven play (`played`). */
  atEpochMs: number
  /** When the alert began to be due. */
  dueEpochMs: number
  /** After this the alert is stale: a push service should drop it rather than deliver it late. */
  expiresEpochMs: number
}

export type PlayAlertSlot = { slotNumber: number; startEpochMs: number; endEpochMs: number }
export type PlayAlertProof = { slotNumber: number; startedAtEpochMs: number }

export type PlayAlertOrder = {
  orderState: OrderState
  slots: readonly PlayAlertSlot[]
  /** The billboard's proofs of play of the order (the player module's). */
  plays: readonly PlayAlertProof[]
}

export const playAlertKey = (kind: PlayAlertKind, slotNumber: number) => `${kind}:${slotNumber}`

/** Every alert of the order, due or not yet, in the order of the instants they speak of. */
function alertsOf(order: PlayAlertOrder, nowEpochMs: number): PlayAlert[] {
  const alerts: PlayAlert[] = []
  for (const slot of order.slots) {
    alerts.push({
      kind: 'soon',
      slotNumber: slot.slotNumber,
      key: playAlertKey('soon', slot.slotNumber),
      atEpochMs: slot.startEpochMs,
      dueEpochMs: slot.startEpochMs - PLAY_ALERT_LEAD_MS,
      expiresEpochMs: slot.startEpochMs,
    })
    // a proof "from the future" (a billboard's clock ahead of ours) counts once its time has come
    const proofs = order.plays.filter(
      (p) => p.slotNumber === slot.slotNumber && p.startedAtEpochMs <= nowEpochMs,
    )
    if (proofs.length > 0) {
      const first = Math.min(...proofs.map((p) => p.startedAtEpochMs))
      alerts.push({
        kind: 'played',
        slotNumber: slot.slotNumber,
        key: playAlertKey('played', slot.slotNumber),
        atEpochMs: first,
        dueEpochMs: first,
        expiresEpochMs: slot.endEpochMs + PLAYED_ALERT_WITHIN_MS,
      })
    }
  }
  return alerts.sort((a, b) => a.atEpochMs - b.atEpochMs || a.key.localeCompare(b.key))
}

/** The alerts due now: due, not yet stale, for a Confirmed order. */
export function playAlertsDue(order: PlayAlertOrder, nowEpochMs: number): PlayAlert[] {
  if (order.orderState !== 'Confirmed') return []
  return alertsOf(order, nowEpochMs).filter(
    (a) => a.dueEpochMs <= nowEpochMs && nowEpochMs < a.expiresEpochMs,
  )
}

/**
 * After this instant the order has nothing more to be told (its last slot ended and the time for a
 * late proof passed): a subscription to it can go. An order without slots: never anything.
 */
export function playAlertsEndEpochMs(slots: readonly PlayAlertSlot[]): number {
  if (slots.length === 0) return 0
  return Math.max(...slots.map((s) => s.endEpochMs)) + PLAYED_ALERT_WITHIN_MS
}

/** Whether an order in this state may still be told anything (a subscription is worth keeping). */
export const mayReceivePlayAlerts = (state: OrderState) =>
  state === 'Confirmed' || state === 'UnderReview' || state === 'Processing'
