import { createHash, randomUUID } from 'node:crypto'
import type { OrderCreated, OrderRequest } from '../../contract/index.ts'
import { countryCodeOf } from '../../domain/country.ts'
import {
  isPurchasable,
  isSlotNumberOfEvent,
  type Promo,
  priceOrder,
  shoutTimesLabel,
  slotStartEpochMs,
} from '../../domain/index.ts'
import { checkPhone } from '../../domain/phone.ts'
import { normalEmail, type PromoCheck } from '../catalogue/promos.ts'
import type { CatalogueReads } from '../catalogue/service.ts'
import type { PaymentService, PaymentSetupRecord } from '../payment/service.ts'
import type { Database } from '../platform/db/client.ts'
import { uniqueViolation } from '../platform/db/errors.ts'
import type { AppEnv } from '../platform/env.ts'
import type { LeaseSettings } from '../platform/lease.ts'
import type { Logger } from '../platform/log.ts'
import type { PendingHit } from '../platform/rate-limit.ts'
import { err, ok, type Result } from '../platform/result.ts'
import type { OrderError, SlotProblem } from './errors.ts'
import {
  contentAndSetup,
  insertOrder,
  type OrderToProcess,
  reservedSlots,
  storedAnswer,
} from './repo.ts'
import type { SoldSlots } from './sold-slots.ts'

// Placing an order (spec §7 call 12): everything that needs no lock is checked, then the order and
// the rows that hold its slots, its key, its checkout and its code are written in one statement.
// The order placed is handed to processing (processing.ts) under this instance's lease.

/** An early exit of placing an order; place() answers it as an error. */
/** Why an order is not placed (it is no lookup: never order_not_found). */
export type PlaceError = Exclude<OrderError, { code: 'order_not_found' }>

class Refused extends Error {
  constructor(readonly error: PlaceError) {
    super(error.code)
  }
}
const refuse = (error: PlaceError): never => {
  throw new Refused(error)
}

/** A stable hash of a JSON body: the same order sent again hashes the same, key order aside. */
export function requestHash(value: unknown): string {
  const canonical = (v: unknown): unknown => {
    if (Array.isArray(v)) return v.map(canonical)
    if (v && typeof v === 'object') {
      return Object.fromEntries(
        Object.keys(v)
          .sort()
          .map((k) => [k, canonical((v as Record<string, unknown>)[k])]),
      )
    }
    return v
  }
  return createHash('sha256')
    .update(JSON.stringify(canonical(value)))
    .digest('hex')
}

// spec §12 order payload: orderType is Standard in production, Test otherwise.
function orderTypeFor(appEnv: AppEnv): 'Standard' | 'Test' {
  return appEnv === 'prod' ? 'Standard' : 'Test'
}

export type PlacingDeps = {
  database: Database
  catalogue: CatalogueReads
  promo: PromoCheck
  soldSlots: SoldSlots
  payment: PaymentService
  appEnv: AppEnv
  log: Logger
  now: () => number
  /** This instance's id and the length of its leases on orders in Processing. */
  lease: LeaseSettings
  /** Takes over the order just placed (processing.ts), as written: nothing is read back. */
  process: (placed: OrderToProcess) => void
}

export function createPlacing(deps: PlacingDeps) {
  const { database: db, catalogue, payment, log, now, soldSlots, lease } = deps

  /**
   * A retry under an Idempotency-Key already used: the first answer again for the same body, a
   * refusal for another body; null for a key not used yet.
   */
  async function replay(
    idempotencyKey: string,
    hash: string,
  ): Promise<Result<OrderCreated, { code: 'idempotency_key_reused' }> | null> {
    const stored = await storedAnswer(db, idempotencyKey)
    if (!stored) return null
    return stored.requestHash === hash
      ? ok(stored.created)
      : err({ code: 'idempotency_key_reused' })
  }

  /**
   * Checks everything that needs no lock, then reserves the slots in one statement. A refusal looks
   * the Idempotency-Key up: a retry of an order already placed replays its answer (its slots and card
   * look taken by then), another body under a used key is refused.
   */
  async function place(
    order: OrderRequest,
    idempotencyKey: string,
    hash: string,
    /** The client's write count, taken with the order when it is written (rate-limit.ts). */
    hit: PendingHit | null = null,
  ): Promise<Result<OrderCreated, PlaceError>> {
    try {
      return ok(await placeChecked(order, idempotencyKey, hash, hit))
    } catch (error) {
      if (error instanceof Refused) {
        // A request with the same key may have committed while this one was checked (its slots
        // and card then look taken): the retry answers as that request did.
        return (await replay(idempotencyKey, hash)) ?? err(error.error)
      }
      throw error
    }
  }

  async function placeChecked(
    order: OrderRequest,
    idempotencyKey: string,
    hash: string,
    hit: PendingHit | null,
  ): Promise<OrderCreated> {
    const nowMs = now()
    // spec §7: orderType is Standard in production; a production server never takes a Test order.
    const orderType = orderTypeFor(deps.appEnv)
    if (orderType === 'Standard' && order.orderType !== 'Standard') {
      refuse({ code: 'order_type_production' })
    }
    if (order.entries.length !== 1) refuse({ code: 'one_billboard' })
    const entry = order.entries[0] as OrderRequest['entries'][number]
    const event = (await catalogue.event(order.eventSlug)) ?? refuse({ code: 'event_not_found' })
    const device =
      (await catalogue.eventDevice(event.slug, entry.deviceId)) ??
      refuse({ code: 'device_not_found' })
    if (device.soldOut) refuse({ code: 'sold_out' })
    if (device.unavailableForEvent) {
      refuse({ code: 'not_available_for_event', eventName: event.name })
    }
    // spec §5: the number is read in the billboard's country and kept in E.164 (domain/phone.ts)
    const phone = checkPhone(order.customer.phoneNumber, countryCodeOf(device.country))
    if (!phone.ok) {
      return refuse(
        phone.problem.code === 'phone_invalid_for_country'
          ? { code: 'phone_invalid_for_country', example: String(phone.problem.params?.example) }
          : { code: 'phone_invalid' },
      )
    }

    // spec §5: slots of the event, bought at least 5 hours before they play.
    const slotProblems: SlotProblem[] = []
    for (const slotNumber of entry.slots) {
      if (!isSlotNumberOfEvent(event, device.timeZoneId, slotNumber)) {
        slotProblems.push({ slotNumber, reason: 'slot_not_in_event' })
      } else if (!isPurchasable(slotStartEpochMs(event, device.timeZoneId, slotNumber), nowMs)) {
        slotProblems.push({ slotNumber, reason: 'slot_past_cutoff' })
      }
    }
    if (slotProblems.length > 0) refuse({ code: 'slots_invalid', slots: slotProblems })

    // spec §5/§8: an order names content generated for this billboard and event.
    const source = order.contentSource
    if (source.eventSlug !== event.slug || source.deviceId !== device.deviceId) {
      refuse({ code: 'missing_content_metadata' })
    }
    const { checkoutSecretKey, customerId, promoCode } = order.checkout.stripeData
    const { content, setup, used } = await contentAndSetup(
      db,
      order.executionContentKey,
      checkoutSecretKey,
    )
    if (!content || content.eventSlug !== event.slug || content.deviceId !== device.deviceId) {
      refuse({ code: 'missing_billboard_content' })
    }

    let promo: Promo | null = null
    let oncePerCustomerCode: string | null = null
    if (promoCode) {
      const checked = await deps.promo.check(promoCode, event.slug, order.emailAddress)
      if (!checked.ok) refuse(checked.error)
      else {
        promo = checked.value.promo
        oncePerCustomerCode = checked.value.oncePerCustomerCode
      }
    }

    // The server prices the order itself (api-v1): the client's idea of a total is never asked.
    const price = priceOrder({
      slotCount: entry.slots.length,
      valueCentsPerSlot: event.valueCentsPerSlot,
      promo,
      log: (msg) => log.warn(msg),
    })

    // The checkoutSecretKey binds the order to the card saved for this checkout; a free order
    // (total 0 after the promo) needs no payment (spec §5).
    let boundSetup: PaymentSetupRecord | null = null
    if (price.paymentRequired) {
      const card = await payment.cardForOrder(setup, customerId, used)
      if (!card.ok) return refuse(card.error)
      boundSetup = card.value
    }

    const guid = randomUUID()
    const created: OrderCreated = { guid, orderState: 'Processing' }
    const slotNumbers = entry.slots
    // A slot is sold once (slot_reservations), a retry is one order (idempotency_keys), a checkout
    // pays one order (checkout_bindings), a once-per-customer code is used once (promo_redemptions):
    // insertOrder writes all or nothing, and a broken key says which rule stopped it.
    for (let attempt = 0; ; attempt++) {
      try {
        const writeAt = now()
        const written = await insertOrder(
          db,
          {
            idempotencyKey,
            requestHash: hash,
            created,
            guid,
            eventSlug: event.slug,
            deviceId: device.deviceId,
            orderType,
            email: order.emailAddress,
            firstName: order.customer.firstName,
            lastName: order.customer.lastName,
            phoneNumber: phone.e164,
            willReceiveMarketing: order.customer.marketingAcknowledgement.willReceive,
            executionContentKey: order.executionContentKey,
            contentSource: order.contentSource,
            locale: order.locale,
            promoCode: promo?.promoCode ?? null,
            slotNumbers,
            valueCentsPerSlot: event.valueCentsPerSlot,
            subtotalCents: price.subtotalCents,
            discountCents: price.discountCents,
            totalCents: price.totalCents,
            currency: event.currency,
            checkoutSecretKey: boundSetup ? checkoutSecretKey : null,
            agreements: order.agreements,
            agreementsAcceptedAt: new Date(nowMs).toISOString(),
            requestBody: order,
            redemption: oncePerCustomerCode
              ? { promoCode: oncePerCustomerCode, email: normalEmail(order.emailAddress) }
              : null,
            lease,
          },
          hit ? { statement: hit.statement(writeAt), limit: hit.limit } : null,
        )
        // The count committed with the order, or alone when the client was past its limit.
        if (hit && written.hit) hit.counted(written.hit, writeAt)
        // deleted since it was read above, by the sweep of content no order names (its lifetime ended)
        if (!written.contentHeld) refuse({ code: 'missing_billboard_content' })
        if (!written.written) refuse({ code: 'writes_limited' })
        break
      } catch (error) {
        if (error instanceof Refused) throw error
        const constraint = uniqueViolation(error)
        if (constraint === 'idempotency_keys_pkey') refuse({ code: 'request_in_progress' })
        if (constraint === 'checkout_bindings_pkey') refuse({ code: 'payment_already_saved' })
        if (constraint === 'promo_redemptions_pkey') refuse({ code: 'promo_once_per_customer' })
        if (constraint !== 'slot_reservations_pkey') throw error
        const taken = await reservedSlots(db, event.slug, device.deviceId, slotNumbers)
        // The order that held them failed in between: try again (a few times at most).
        if (taken.length === 0 && attempt < 3) continue
        soldSlots.changed(event.slug, device.deviceId)
        const labels = shoutTimesLabel(event, device.timeZoneId, taken, order.locale).join(', ')
        refuse({ code: 'slots_taken', slots: taken, labels })
      }
    }
    soldSlots.changed(event.slug, device.deviceId)
    deps.process({
      guid,
      eventSlug: event.slug,
      deviceId: device.deviceId,
      state: 'Processing',
      totalCents: price.totalCents,
      currency: event.currency,
      content,
      setup: boundSetup,
      slotNumbers: [...slotNumbers],
    })
    return created
  }

  return { place, replay }
}
