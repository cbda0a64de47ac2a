import { createHash, randomUUID } from 'node:crypto'
import type { OrderRequest, OrderStatus, OrderSummary } from '../../contract/index.ts'
import {
  confirmationCode,
  confirmationFor,
  isPurchasable,
  isSlotNumberOfEvent,
  messages,
  type Promo,
  priceOrder,
  shoutTimesLabel,
  slotEndEpochMs,
  slotStartEpochMs,
} from '../../domain/index.ts'
import type { CatalogueReads } from '../catalogue-reads.ts'
import type { PaymentProvider, PaymentSetupRecord } from '../payment/provider.ts'
import type { Database, Row } from '../platform/db/client.ts'
import type { AppEnv } from '../platform/env.ts'
import { orderTypeFor } from '../platform/env.ts'
import type { Logger } from '../platform/log.ts'
import { checkPromo, normalEmail } from '../promos.ts'
import type { SoldSlots } from '../sold-slots.ts'

export type Answer = { status: 200 | 201 | 400 | 404 | 409 | 422 | 503; body: unknown }

export const paymentMessages = {
  checkoutMismatch:
    'The payment details do not belong to this checkout. Please go back to Billing Info and enter your card again.',
  setupNotConfirmed:
    'Your card has not been saved yet. Please go back to Billing Info and enter your card details.',
  oneBillboard: 'entries: an order is for one billboard; place one order per billboard',
  orderTypeProduction: 'orderType: must be Standard on this server',
  providerUnavailable: 'Payments are unavailable right now. Please try again in a moment.',
} as const

type ContentRow = {
  key: string
  url: string
  type: 'photo' | 'video'
  device_id: string
  event_slug: string
  flagged: boolean
}

type OrderRow = {
  guid: string
  event_slug: string
  device_id: string
  state: OrderStatus['orderState']
  errors: string[]
  execution_content_key: string
  total_cents: number
  subtotal_cents: number
  discount_cents: number
  currency: string
  checkout_secret_key: string | null
  confirmation_date_epoch_ms: string | number | null
  promo_code: string | null
  locale: string
}

class Refusal extends Error {
  constructor(readonly answer: Answer) {
    super('refused')
  }
}
const refuse = (status: Answer['status'], errors: string[], extra: Row = {}): never => {
  throw new Refusal({ status, body: { errors, ...extra } })
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

const toNumber = (value: string | number | null): number | null =>
  value === null ? null : Number(value)

/** The name of the unique constraint a statement broke, if that is why it failed. */
function uniqueViolation(error: unknown): string | null {
  for (let e: unknown = error, depth = 0; e && depth < 4; depth++) {
    const { code, constraint } = e as { code?: unknown; constraint?: unknown }
    if (code === '23505') return typeof constraint === 'string' ? constraint : 'unknown'
    e = (e as { cause?: unknown }).cause
  }
  return null
}

const PLACE_ORDER_SQL = `
  with k as (
    insert into idempotency_keys (key, request_hash, status_code, response_body)
    values ($1, $2, 201, $3) returning key
  ), o as (
    insert into orders (guid, event_slug, device_id, state, order_type, email, first_name, last_name,
      phone_number, will_receive_marketing, execution_content_key, content_source, locale, promo_code,
      slot_count, value_cents_per_slot, subtotal_cents, discount_cents, total_cents, currency,
      checkout_secret_key, agreements, agreements_accepted_at, request_body, created_at, updated_at,
      slot_numbers)
    select $4, $5, $6, 'Processing', $7, $8, $9, $10, $11, $12, $13, $14, $15, $16, $17, $18, $19,
      $20, $21, $22, $23, $24, $25, $26, $25, $25, $27::int[]
    from k
    returning guid
  ), r as (
    insert into slot_reservations (event_slug, device_id, slot_number, order_guid)
    select $5, $6, s, o.guid from o, unnest($27::int[]) as s
  ), b as (
    insert into checkout_bindings (checkout_secret_key, order_guid)
    select $23, o.guid from o where $23::text is not null
  ), pr as (
    insert into promo_redemptions (promo_code, email, order_guid)
    select $28, $29, o.guid from o where $28::text is not null
  )
  select guid from o`

export type OrderService = ReturnType<typeof createOrderService>

export function createOrderService(deps: {
  database: Database
  catalogue: CatalogueReads
  soldSlots: SoldSlots
  payment: PaymentProvider
  appEnv: AppEnv
  log: Logger
  now: () => number
}) {
  const { database, catalogue, payment, log, now, soldSlots } = deps
  const inflight = new Set<Promise<void>>()

  async function contentByKey(key: string): Promise<ContentRow | null> {
    const rows = await database.raw<ContentRow>(
      'select key, url, type, device_id, event_slug, flagged from generated_content where key = $1',
      [key],
    )
    return rows[0] ?? null
  }

  type SetupRow = {
    checkout_secret_key: string
    customer_id: string
    setup_intent_id: string
    status: string
    payment_method_id: string | null
    charge_outcome: string | null
  }
  const toSetup = (row: SetupRow | null): PaymentSetupRecord | null =>
    row
      ? {
          checkoutSecretKey: row.checkout_secret_key,
          customerId: row.customer_id,
          setupIntentId: row.setup_intent_id,
          status: row.status,
          paymentMethodId: row.payment_method_id,
          chargeOutcome: row.charge_outcome,
        }
      : null

  /** The content an order names and the checkout it binds (and whether it is used), in one round trip. */
  async function contentAndSetup(key: string, checkoutSecretKey: string) {
    const [row] = await database.raw<{
      content: ContentRow | null
      setup: SetupRow | null
      used: boolean
    }>(
      `select (select row_to_json(g) from (select key, url, type, device_id, event_slug, flagged
                 from generated_content where key = $1) g) as content,
              (select row_to_json(p) from payment_setups p where checkout_secret_key = $2) as setup,
              exists (select 1 from checkout_bindings where checkout_secret_key = $2) as used`,
      [key, checkoutSecretKey],
    )
    return {
      content: row?.content ?? null,
      setup: toSetup(row?.setup ?? null),
      used: row?.used ?? false,
    }
  }

  async function storedAnswer(key: string, hash: string): Promise<Answer | null> {
    const rows = await database.raw<{
      request_hash: string
      status_code: number
      response_body: unknown
    }>('select request_hash, status_code, response_body from idempotency_keys where key = $1', [
      key,
    ])
    const row = rows[0]
    if (!row) return null
    if (row.request_hash !== hash) {
      return { status: 422, body: { errors: [messages.idempotencyKeyReused] } }
    }
    return { status: row.status_code as Answer['status'], body: row.response_body }
  }

  /**
   * Checks everything that needs no lock, then reserves the slots in one statement. A refusal looks
   * the Idempotency-Key up: a retry of an order already placed replays its answer (its slots and card
   * look taken by then), another body under a used key is a 422.
   */
  async function place(order: OrderRequest, idempotencyKey: string, hash: string): Promise<Answer> {
    try {
      return await placeChecked(order, idempotencyKey, hash)
    } catch (error) {
      if (error instanceof Refusal) {
        // A request with the same key may have committed while this one was checked (its slots
        // and card then look taken): the retry answers as that request did.
        return (await storedAnswer(idempotencyKey, hash)) ?? error.answer
      }
      throw error
    }
  }

  async function placeChecked(
    order: OrderRequest,
    idempotencyKey: string,
    hash: string,
  ): Promise<Answer> {
    const nowMs = now()
    // spec §7: orderType is Standard in production; a production server never takes a Test order.
    const orderType = orderTypeFor(deps.appEnv)
    if (orderType === 'Standard' && order.orderType !== 'Standard') {
      refuse(400, [paymentMessages.orderTypeProduction])
    }
    if (order.entries.length !== 1) refuse(400, [paymentMessages.oneBillboard])
    const entry = order.entries[0] as OrderRequest['entries'][number]
    const event = (await catalogue.event(order.eventSlug)) ?? refuse(404, [messages.eventNotFound])
    const device =
      (await catalogue.eventDevice(event.slug, entry.deviceId)) ??
      refuse(404, [messages.deviceNotFound])
    if (device.soldOut) refuse(409, [messages.soldOut])
    if (device.unavailableForEvent) refuse(409, [messages.notAvailableFor(event.name)])

    // spec §5: slots of the event, bought at least 5 hours before they play.
    const slotErrors: string[] = []
    for (const slot of entry.slots) {
      if (!isSlotNumberOfEvent(event, device.timeZoneId, slot)) {
        slotErrors.push(messages.slotNotInEvent(slot))
      } else if (!isPurchasable(slotStartEpochMs(event, device.timeZoneId, slot), nowMs)) {
        slotErrors.push(messages.slotPastCutoff(slot))
      }
    }
    if (slotErrors.length > 0) refuse(400, slotErrors)

    // spec §5/§8: an order names content generated for this billboard and event.
    const source = order.contentSource
    if (source.eventSlug !== event.slug || source.deviceId !== device.deviceId) {
      refuse(400, [messages.missingContentMetadata])
    }
    const { content, setup, used } = await contentAndSetup(
      order.executionContentKey,
      order.checkout.stripeData.checkoutSecretKey,
    )
    if (!content || content.event_slug !== event.slug || content.device_id !== device.deviceId) {
      refuse(400, [messages.missingBillboardContent])
    }

    let promo: Promo | null = null
    let oncePromoCode: string | null = null
    const promoCode = order.checkout.stripeData.promoCode
    if (promoCode) {
      const check = await checkPromo(database.db, promoCode, event.slug, order.emailAddress)
      if (!check.ok) refuse(422, [check.error])
      else {
        promo = check.promo
        if (check.row.oncePerCustomer) oncePromoCode = check.row.promoCode
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
    let checkoutKey: string | null = null
    let boundSetup: PaymentSetupRecord | null = null
    if (price.paymentRequired) {
      const { checkoutSecretKey, customerId } = order.checkout.stripeData
      if (!setup || setup.customerId !== customerId) refuse(400, [paymentMessages.checkoutMismatch])
      else {
        if (used) refuse(409, [messages.paymentAlreadySaved])
        if (setup.status !== 'succeeded') {
          const check = await payment.checkSetup(setup).catch((error: unknown) => {
            log.error('payment provider unreachable', { error })
            return refuse(503, [paymentMessages.providerUnavailable])
          })
          if (!check.confirmed) refuse(400, [paymentMessages.setupNotConfirmed])
          else {
            await database.raw(
              "update payment_setups set status = 'succeeded', payment_method_id = $2 where checkout_secret_key = $1",
              [checkoutSecretKey, check.paymentMethodId],
            )
            setup.status = 'succeeded'
            setup.paymentMethodId = check.paymentMethodId
          }
        }
        checkoutKey = checkoutSecretKey
        boundSetup = setup
      }
    }

    const guid = randomUUID()
    const created = { guid, orderState: 'Processing' as const }
    const agreementsAt = new Date(nowMs).toISOString()
    const params = [
      idempotencyKey,
      hash,
      JSON.stringify(created),
      guid,
      event.slug,
      device.deviceId,
      orderType,
      order.emailAddress,
      order.customer.firstName,
      order.customer.lastName,
      order.customer.phoneNumber,
      order.customer.marketingAcknowledgement.willReceive,
      order.executionContentKey,
      JSON.stringify(order.contentSource),
      order.locale,
      promo?.promoCode ?? null,
      entry.slots.length,
      event.valueCentsPerSlot,
      price.subtotalCents,
      price.discountCents,
      price.totalCents,
      event.currency,
      checkoutKey,
      // spec §3 consents: stored with the order, with the time they were given
      JSON.stringify(order.agreements),
      agreementsAt,
      JSON.stringify(order),
      entry.slots,
      oncePromoCode,
      normalEmail(order.emailAddress),
    ]
    // One statement is one transaction: either everything below is written, or (on any unique key)
    // nothing is. The unique keys are the rules that no race can break: a slot is sold once
    // (slot_reservations), a retry is one order (idempotency_keys), a checkout pays one order
    // (checkout_bindings), a once-per-customer code is used once (promo_redemptions).
    for (let attempt = 0; ; attempt++) {
      try {
        await database.raw(PLACE_ORDER_SQL, params)
        break
      } catch (error) {
        const constraint = uniqueViolation(error)
        if (constraint === 'idempotency_keys_pkey') {
          refuse(409, ['An identical request is already being processed'])
        }
        if (constraint === 'checkout_bindings_pkey') refuse(409, [messages.paymentAlreadySaved])
        if (constraint === 'promo_redemptions_pkey') refuse(422, [messages.promoOncePerCustomer])
        if (constraint !== 'slot_reservations_pkey') throw error
        const rows = await database.raw<{ slot_number: number }>(
          'select slot_number from slot_reservations where event_slug = $1 and device_id = $2 and slot_number = any($3::int[]) order by slot_number',
          [event.slug, device.deviceId, entry.slots],
        )
        const taken = rows.map((r) => Number(r.slot_number))
        // The order that held them failed in between: try again (a few times at most).
        if (taken.length === 0 && attempt < 3) continue
        soldSlots.changed(event.slug, device.deviceId)
        const labels = shoutTimesLabel(event, device.timeZoneId, taken, order.locale).join(', ')
        refuse(409, [messages.slotsTaken(labels)], { takenSlots: taken })
      }
    }
    soldSlots.changed(event.slug, device.deviceId)
    schedule(guid, {
      guid,
      event_slug: event.slug,
      device_id: device.deviceId,
      state: 'Processing',
      total_cents: price.totalCents,
      currency: event.currency,
      content,
      setup: checkoutKey ? boundSetup : null,
      slots: entry.slots,
    })
    return { status: 201, body: created }
  }

  async function finish(
    order: { guid: string; event_slug: string; device_id: string },
    state: OrderStatus['orderState'],
    fields: {
      errors?: string[]
      paymentId?: string | null
      confirmationDateEpochMs?: number | null
    },
  ) {
    const params = [
      order.guid,
      state,
      JSON.stringify(fields.errors ?? []),
      fields.paymentId ?? null,
      fields.confirmationDateEpochMs ?? null,
    ]
    if (state !== 'Failed') {
      await database.raw(
        `update orders set state = $2, errors = $3, payment_id = coalesce($4, payment_id),
           confirmation_date_epoch_ms = $5, updated_at = now()
         where guid = $1 and state = 'Processing'`,
        params,
      )
    } else {
      // One statement, so it is atomic without a transaction. issue 3: a failed order frees its
      // slots (and a once-per-customer code) for others.
      await database.raw(
        `with u as (
           update orders set state = $2, errors = $3, payment_id = coalesce($4, payment_id),
             confirmation_date_epoch_ms = $5, updated_at = now()
           where guid = $1 and state = 'Processing' returning guid
         ), r as (
           delete from slot_reservations where order_guid in (select guid from u)
         ), p as (
           delete from promo_redemptions where order_guid in (select guid from u)
         )
         select count(*) from u`,
        params,
      )
    }
    if (state === 'Failed') soldSlots.changed(order.event_slug, order.device_id)
    log.info('order finished', { guid: order.guid, state, errors: fields.errors ?? [] })
  }

  async function chargeWithRetry(request: Parameters<PaymentProvider['charge']>[0]) {
    let lastError: unknown
    for (let attempt = 0; attempt < 3; attempt++) {
      try {
        return await payment.charge(request)
      } catch (error) {
        lastError = error
        log.warn('charge attempt failed', { guid: request.orderGuid, attempt, error })
        await new Promise((r) => setTimeout(r, 200 * 2 ** attempt))
      }
    }
    log.error('charge failed', { guid: request.orderGuid, error: lastError })
    return { ok: false as const, error: messages.unknownError, paymentId: null }
  }

  type ProcessRow = {
    guid: string
    event_slug: string
    device_id: string
    state: OrderStatus['orderState']
    total_cents: number
    currency: string
    content: ContentRow | null
    setup: PaymentSetupRecord | null
    slots: number[]
  }

  /**
   * Processing → Confirmed, UnderReview or Failed (issue 3). Safe to run again after a crash. Right
   * after placing, the order as just written is handed over, which spares reading it back.
   */
  async function processOrder(guid: string, placed?: ProcessRow): Promise<void> {
    const order: ProcessRow | undefined =
      placed ??
      (
        await database.raw<Omit<ProcessRow, 'setup'> & { setup: SetupRow | null }>(
          `select o.guid, o.event_slug, o.device_id, o.state, o.total_cents, o.currency,
             (select row_to_json(g) from (select key, url, type, device_id, event_slug, flagged
                from generated_content where key = o.execution_content_key) g) as content,
             (select row_to_json(p) from payment_setups p where p.checkout_secret_key = o.checkout_secret_key) as setup,
             o.slot_numbers as slots
           from orders o where o.guid = $1`,
          [guid],
        )
      ).map((row) => ({ ...row, setup: toSetup(row.setup) }))[0]
    if (order?.state !== 'Processing') return
    const event = await catalogue.event(order.event_slug)
    const device = event ? await catalogue.eventDevice(event.slug, order.device_id) : null
    if (!event || !device) return finish(order, 'Failed', { errors: [messages.eventNotFound] })
    if (!order.content)
      return finish(order, 'Failed', { errors: [messages.missingBillboardContent] })

    let paymentId: string | null = null
    if (order.total_cents > 0) {
      const setup = order.setup
      if (!setup) return finish(order, 'Failed', { errors: [paymentMessages.checkoutMismatch] })
      const result = await chargeWithRetry({
        orderGuid: guid,
        amountCents: order.total_cents,
        currency: order.currency,
        setup,
        description: `Shouts order ${confirmationCode(guid)} (${event.name})`,
      })
      if (!result.ok) {
        return finish(order, 'Failed', { errors: [result.error], paymentId: result.paymentId })
      }
      paymentId = result.paymentId
    }
    const confirmation = confirmationFor({
      event,
      timeZoneId: device.timeZoneId,
      slotNumbers: order.slots.map(Number),
      minPresaleSlotEpochMs: event.minPresaleSlotEpochMs,
    })
    // spec §4: confirmed instantly, or under review (flagged content, or presale slots with a date).
    const review = order.content.flagged || !confirmation.instant
    await finish(order, review ? 'UnderReview' : 'Confirmed', {
      paymentId,
      confirmationDateEpochMs: confirmation.instant ? null : confirmation.confirmationDateEpochMs,
    })
  }

  function schedule(guid: string, placed: ProcessRow) {
    const job: Promise<void> = new Promise<void>((resolve) => setImmediate(resolve))
      .then(() => processOrder(guid, placed))
      .catch((error: unknown) => log.error('order processing failed', { guid, error }))
      .finally(() => inflight.delete(job))
    inflight.add(job)
  }

  /** issue 3: an order left Processing by a crash is finished or failed when the server starts. */
  async function recover(): Promise<number> {
    const rows = await database.raw<{ guid: string }>(
      "select guid from orders where state = 'Processing' order by created_at",
    )
    for (const row of rows) {
      await processOrder(row.guid).catch((error: unknown) =>
        log.error('order recovery failed', { guid: row.guid, error }),
      )
    }
    if (rows.length > 0) log.info('recovered orders', { count: rows.length })
    return rows.length
  }

  async function status(eventSlug: string, guid: string): Promise<OrderStatus | null> {
    const rows = await database.raw<OrderRow>(
      'select state, errors, confirmation_date_epoch_ms from orders where guid = $1 and event_slug = $2',
      [guid, eventSlug],
    )
    const row = rows[0]
    if (!row) return null
    return {
      orderState: row.state,
      errors: row.errors,
      confirmationDateEpochMs: toNumber(row.confirmation_date_epoch_ms),
    }
  }

  async function summary(eventSlug: string, guid: string): Promise<OrderSummary | null> {
    const rows = await database.raw<OrderRow>(
      'select * from orders where guid = $1 and event_slug = $2',
      [guid, eventSlug],
    )
    const order = rows[0]
    if (!order) return null
    const event = await catalogue.event(order.event_slug)
    const device = event ? await catalogue.eventDevice(event.slug, order.device_id) : null
    if (!event || !device) return null
    const slotNumbers = [...(order as OrderRow & { slot_numbers: number[] }).slot_numbers]
      .map(Number)
      .sort((a, b) => a - b)
    const content = await contentByKey(order.execution_content_key)
    return {
      guid: order.guid,
      confirmationCode: confirmationCode(order.guid),
      eventSlug: event.slug,
      eventName: event.name,
      orderState: order.state,
      errors: order.errors,
      confirmationDateEpochMs: toNumber(order.confirmation_date_epoch_ms),
      device: {
        deviceId: device.deviceId,
        location: device.location,
        city: device.city,
        stateAbbr: device.stateAbbr,
        country: device.country,
        timeZoneId: device.timeZoneId,
      },
      slots: slotNumbers.map((n) => {
        return {
          slotNumber: n,
          startEpochMs: slotStartEpochMs(event, device.timeZoneId, n),
          endEpochMs: slotEndEpochMs(event, device.timeZoneId, n),
        }
      }),
      contentUrl: content?.url ?? null,
      contentType: content?.type ?? null,
      currency: order.currency,
      subtotalCents: order.subtotal_cents,
      discountCents: order.discount_cents,
      totalCents: order.total_cents,
      promoCode: order.promo_code,
      locale: order.locale as OrderSummary['locale'],
    }
  }

  return {
    place,
    storedAnswer,
    processOrder,
    recover,
    status,
    summary,
    /** Waits for orders being processed (used before closing the database). */
    drain: async () => {
      while (inflight.size > 0) await Promise.allSettled([...inflight])
    },
  }
}
