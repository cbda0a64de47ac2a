import type { PromoError } from '../catalogue/promos.ts'
import type { CardError } from '../payment/service.ts'

// What the order service answers instead of a value: a typed error with a stable code. The routes
// (routes.ts) give each its status and text.

/** Why a slot of an order cannot be sold (spec §5): each is reported. */
export type SlotProblem = {
  slotNumber: number
  reason: 'slot_not_in_event' | 'slot_past_cutoff'
}

export type OrderError =
  /** spec §7: a production server takes only Standard orders. */
  | { code: 'order_type_production' }
  | { code: 'one_billboard' }
  | { code: 'event_not_found' }
  | { code: 'device_not_found' }
  | { code: 'sold_out' }
  | { code: 'not_available_for_event'; eventName: string }
  | { code: 'slots_invalid'; slots: SlotProblem[] }
  /** spec §5: a phone number that is none of the billboard's country (domain/phone.ts). */
  | { code: 'phone_invalid' }
  | { code: 'phone_invalid_for_country'; example: string }
  /** The content source names another event or billboard than the order. */
  | { code: 'missing_content_metadata' }
  /** No generated content under the key, or content made for another billboard or event. */
  | { code: 'missing_billboard_content' }
  | PromoError
  /** The card the order pays with cannot be used (payment/service.ts cardForOrder). */
  | CardError
  /** The same Idempotency-Key is being placed by another request right now. */
  | { code: 'request_in_progress' }
  /** spec §8: 'Time slot(s) taken {labels}'; `slots` are the slot numbers taken. */
  | { code: 'slots_taken'; slots: number[]; labels: string }
  | { code: 'idempotency_key_reused' }
  | { code: 'order_not_found' }
  /**
   * The client is past its write limit (counted in the order's own statement, which then wrote
   * nothing): the write limit's middleware answers the 429.
   */
  | { code: 'writes_limited' }
