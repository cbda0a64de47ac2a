import type { OrderState } from '../../contract/index.ts'
import type { ProblemData } from '../../domain/problems.ts'
import { columnMap } from '../platform/db/columns.ts'

// The orders table's columns as the order module's rows name them (migrations 0001 onwards): the
// reads take their select lists from this one declaration instead of writing each alias again.

export type OrderColumns = {
  guid: string
  eventSlug: string
  deviceId: string
  state: OrderState
  errors: ProblemData[]
  confirmationDateEpochMs: number | null
  slotNumbers: number[]
  currency: string
  subtotalCents: number
  discountCents: number
  totalCents: number
  promoCode: string | null
  locale: string
  orderType: string
  email: string
  firstName: string
  lastName: string
  phoneNumber: string
  willReceiveMarketing: boolean
  paymentId: string | null
  executionContentKey: string
  authenticationUntilEpochMs: number | null
}

export const ORDERS = columnMap<OrderColumns>('orders', {
  guid: 'guid',
  eventSlug: 'event_slug',
  deviceId: 'device_id',
  state: 'state',
  errors: { column: 'errors', json: true },
  confirmationDateEpochMs: { column: 'confirmation_date_epoch_ms', cast: 'bigint' },
  slotNumbers: 'slot_numbers',
  currency: 'currency',
  subtotalCents: 'subtotal_cents',
  discountCents: 'discount_cents',
  totalCents: 'total_cents',
  promoCode: 'promo_code',
  locale: 'locale',
  orderType: 'order_type',
  email: 'email',
  firstName: 'first_name',
  lastName: 'last_name',
  phoneNumber: 'phone_number',
  willReceiveMarketing: 'will_receive_marketing',
  paymentId: 'payment_id',
  executionContentKey: 'execution_content_key',
  authenticationUntilEpochMs: { column: 'authentication_until_epoch_ms', cast: 'bigint' },
})

/** A slot sold once (slot_reservations): its key is the rule no race can break. */
export type SlotReservationColumns = {
  eventSlug: string
  deviceId: string
  slotNumber: number
  orderGuid: string
}

export const SLOT_RESERVATIONS = columnMap<SlotReservationColumns>('slot_reservations', {
  eventSlug: 'event_slug',
  deviceId: 'device_id',
  slotNumber: 'slot_number',
  orderGuid: 'order_guid',
})

/** A retried order's key, with the hash of the body it came with and the answer it was given. */
export const IDEMPOTENCY_KEYS = columnMap<{
  key: string
  requestHash: string
  statusCode: number
  created: unknown
}>('idempotency_keys', {
  key: 'key',
  requestHash: 'request_hash',
  statusCode: { column: 'status_code', cast: 'int' },
  created: { column: 'response_body', json: true },
})
