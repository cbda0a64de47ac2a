import { createHash, randomBytes, randomUUID } from 'node:crypto'
import type {
  LocalConfirmRequest,
  LocalConfirmResponse,
  OrderCreated,
  OrderDefaults,
  OrderRequest,
  OrderStatus,
  OrderSummary,
  SetupIntentResponse,
} from '../../contract/index.ts'
import {
  confirmationCode,
  confirmationFor,
  isPurchasable,
  isSlotNumberOfEvent,
  messages,
  type Promo,
  priceOrder,
  shoutTimesLabel,
  slotStartEpochMs,
} from '../../domain/index.ts'
import { contentImageUrl } from '../content/storage.ts'
import type { PaymentProvider, PaymentSetupRecord } from '../payment/service.ts'
import { cardBrand, cardOutcome } from '../payment/test-cards.ts'
import type { Database } from '../platform/db/client.ts'
import { uniqueViolation } from '../platform/db/errors.ts'
import type { AppEnv } from '../platform/env.ts'
import { heartbeat, type LeaseSettings } from '../platform/lease.ts'
import type { Logger } from '../platform/log.ts'
import { err, ok, type Result } from '../platform/result.ts'
import { normalEmail, type PromoError, type PromoService } from '../promo/service.ts'
import type { CatalogueReads } from '../spotlight/service.ts'
import type { SoldSlots } from '../spotlight/sold-slots.ts'
import { paymentMessages } from './messages.ts'
import {
  claimAbandonedOrders,
  claimOrder,
  contentAndSetup,
  contentByKey,
  expireOrderLeases,
  type Finish,
  finishOrder,
  insertOrder,
  insertPaymentSetup,
  markSetupSucceeded,
  type OrderToProcess,
  orderOfEvent,
  orderToProcess,
  playsOfOrder,
  releaseOrderLeases,
  renewOrderLease,
  reservedSlots,
  saveLocalCard,
  setupByClientSecret,
  storedAnswer,
} from './repo.ts'
import { orderSummary } from './summary.ts'

// api-v1 "Order": defaults, saving a card, placing an order, processing it (Processing → Confirmed,
// UnderReview or Failed), its status and its summary. Answers are results and typed errors; the
// routes (routes.ts) give each error its status and the spec's text.

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
  /** The content source names another event or billboard than the order. */
  | { code: 'missing_content_metadata' }
  /** No generated content under the key, or content made for another billboard or event. */
  | { code: 'missing_billboard_content' }
  | PromoError
  /** The checkout's card belongs to another customer, or there is no such checkout. */
  | { code: 'checkout_mismatch' }
  /** The checkout already paid for an order, or the card form was already used. */
  | { code: 'payment_already_saved' }
  | { code: 'setup_not_confirmed' }
  | { code: 'payment_unavailable' }
  /** The same Idempotency-Key is being placed by another request right now. */
  | { code: 'request_in_progress' }
  /** spec §8: 'Time slot(s) taken {labels}'; `slots` are the slot numbers taken. */
  | { code: 'slots_taken'; slots: number[]; labels: string }
  | { code: 'idempotency_key_reused' }
  | { code: 'order_not_found' }
  | { code: 'local_cards_disabled' }
  | { code: 'payment_form_expired' }
  /** A test card's outcome; `declineCode` is Stripe's (card_declined, insufficient_funds, ...). */
  | { code: 'card_declined'; declineCode: string; message: string }

/** An early exit of placing an order; place() answers it as an error. */
class Refused extends Error {
  constructor(readonly error: OrderError) {
    super(error.code)
  }
}
const refuse = (error: OrderError): never => {
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
export function orderTypeFor(appEnv: AppEnv): 'Standard' | 'Test' {
  return appEnv === 'prod' ? 'Standard' : 'Test'
}

export type OrderService = ReturnType<typeof createOrderService>

export function createOrderService(deps: {
  database: Database
  catalogue: CatalogueReads
  promo: PromoService
  soldSlots: SoldSlots
  payment: PaymentProvider
  appEnv: AppEnv
  log: Logger
  now: () => number
  /** This instance's id and the length of its leases on orders in Processing. */
  lease: LeaseSettings
  /** A charge the provider failed, or a card it refused. */
  onPaymentError?: (kind: 'provider' | 'declined') => void
}) {
  const { database: db, catalogue, payment, log, now, soldSlots, lease } = deps
  const inflight = new Set<Promise<void>>()

  /**
   * A retry under an Idempotency-Key already used: the first answer again for the same body, a
   * refusal for another body; null for a key not used yet.
   */
  async function replay(
    idempotencyKey: string,
    hash: string,
  ): Promise<Result<OrderCreated, OrderError> | null> {
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
  ): Promise<Result<OrderCreated, OrderError>> {
    try {
      return ok(await placeChecked(order, idempotencyKey, hash))
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
      if (!setup || setup.customerId !== customerId) return refuse({ code: 'checkout_mismatch' })
      if (used) refuse({ code: 'payment_already_saved' })
      if (setup.status !== 'succeeded') {
        const check = await payment.checkSetup(setup).catch((error: unknown) => {
          log.error('payment provider unreachable', { error })
          return refuse({ code: 'payment_unavailable' })
        })
        if (!check.confirmed) return refuse({ code: 'setup_not_confirmed' })
        await markSetupSucceeded(db, checkoutSecretKey, check.paymentMethodId)
        setup.status = 'succeeded'
        setup.paymentMethodId = check.paymentMethodId
      }
      boundSetup = setup
    }

    const guid = randomUUID()
    const created: OrderCreated = { guid, orderState: 'Processing' }
    const slotNumbers = entry.slots
    // A slot is sold once (slot_reservations), a retry is one order (idempotency_keys), a checkout
    // pays one order (checkout_bindings), a once-per-customer code is used once (promo_redemptions):
    // insertOrder writes all or nothing, and a broken key says which rule stopped it.
    for (let attempt = 0; ; attempt++) {
      try {
        await insertOrder(db, {
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
          phoneNumber: order.customer.phoneNumber,
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
        })
        break
      } catch (error) {
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
    schedule(guid, {
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

  async function finish(order: OrderToProcess, outcome: Partial<Finish> & Pick<Finish, 'state'>) {
    const errors = outcome.errors ?? []
    await finishOrder(db, order.guid, lease.owner, {
      state: outcome.state,
      errors,
      paymentId: outcome.paymentId ?? null,
      confirmationDateEpochMs: outcome.confirmationDateEpochMs ?? null,
    })
    if (outcome.state === 'Failed') soldSlots.changed(order.eventSlug, order.deviceId)
    log.info('order finished', { guid: order.guid, state: outcome.state, errors })
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
    deps.onPaymentError?.('provider')
    return { ok: false as const, error: messages.unknownError, paymentId: null }
  }

  /**
   * Processing → Confirmed, UnderReview or Failed, by the instance that holds the order's
   * lease, renewed while it works. Safe to run again after a crash: the charge is keyed by
   * the order. Right after placing, the order as just written (under this instance's lease) is handed
   * over, which spares reading it back. A failed order keeps its reason as text (GET status shows it).
   */
  async function processOrder(guid: string, placed?: OrderToProcess): Promise<void> {
    if (!placed && !(await claimOrder(db, guid, lease))) return
    const stopBeat = heartbeat(
      lease.leaseMs,
      () => renewOrderLease(db, guid, lease),
      // Stalled past the lease: another instance finishes the order (finishOrder writes only the
      // holder's outcome), and a charge made here meanwhile is the same charge (keyed by the order).
      () => log.warn('order lease lost', { guid }),
      (error) => log.warn('order lease not renewed', { guid, error }),
    )
    try {
      await processHeld(guid, placed)
    } finally {
      stopBeat()
    }
  }

  async function processHeld(guid: string, placed?: OrderToProcess): Promise<void> {
    const order = placed ?? (await orderToProcess(db, guid))
    if (order?.state !== 'Processing') return
    const event = await catalogue.event(order.eventSlug)
    const device = event ? await catalogue.eventDevice(event.slug, order.deviceId) : null
    if (!event || !device) {
      return finish(order, { state: 'Failed', errors: [messages.eventNotFound] })
    }
    if (!order.content) {
      return finish(order, { state: 'Failed', errors: [messages.missingBillboardContent] })
    }

    let paymentId: string | null = null
    if (order.totalCents > 0) {
      const setup = order.setup
      if (!setup) {
        return finish(order, { state: 'Failed', errors: [paymentMessages.checkoutMismatch] })
      }
      const result = await chargeWithRetry({
        orderGuid: guid,
        amountCents: order.totalCents,
        currency: order.currency,
        setup,
        description: `Shouts order ${confirmationCode(guid)} (${event.name})`,
      })
      if (!result.ok) {
        deps.onPaymentError?.('declined')
        return finish(order, {
          state: 'Failed',
          errors: [result.error],
          paymentId: result.paymentId,
        })
      }
      paymentId = result.paymentId
    }
    const confirmation = confirmationFor({
      event,
      timeZoneId: device.timeZoneId,
      slotNumbers: order.slotNumbers,
      minPresaleSlotEpochMs: event.minPresaleSlotEpochMs,
    })
    // spec §4: confirmed instantly, or under review (flagged content, or presale slots with a date).
    const review = order.content.flagged || !confirmation.instant
    await finish(order, {
      state: review ? 'UnderReview' : 'Confirmed',
      paymentId,
      confirmationDateEpochMs: confirmation.instant ? null : confirmation.confirmationDateEpochMs,
    })
  }

  function schedule(guid: string, placed: OrderToProcess) {
    const job: Promise<void> = new Promise<void>((resolve) => setImmediate(resolve))
      .then(() => processOrder(guid, placed))
      .catch((error: unknown) => log.error('order processing failed', { guid, error }))
      .finally(() => inflight.delete(job))
    inflight.add(job)
  }

  let stopped = false
  let sweeping: Promise<unknown> | null = null
  let sweepTimer: ReturnType<typeof setInterval> | null = null

  /**
   * Orders left Processing by an instance that is gone (crashed, killed, or this one
   * before a restart) are claimed once their lease ends, and finished or failed. Answers how many.
   */
  async function recover(): Promise<number> {
    let count = 0
    for (;;) {
      const guids = await claimAbandonedOrders(db, lease, 10)
      if (guids.length === 0) break
      for (const guid of guids) {
        await processOrder(guid).catch((error: unknown) =>
          log.error('order recovery failed', { guid, error }),
        )
      }
      count += guids.length
      if (stopped) break
    }
    if (count > 0) log.info('recovered orders', { count })
    return count
  }

  // Every instance looks for abandoned orders at start and then every third of a lease, so an order
  // whose instance died is finished within about a lease and a third of its last renewal.
  const sweep = () => {
    if (sweeping || stopped) return
    sweeping = recover()
      .catch((error: unknown) => log.error('order recovery failed', { error }))
      .finally(() => {
        sweeping = null
      })
  }
  /** Starts looking for abandoned orders (main.ts, once the server listens). */
  async function startRecovery(): Promise<void> {
    // The embedded database is opened by one process at a time: what it finds held, a gone process held.
    if (db.kind === 'pglite') await expireOrderLeases(db)
    sweep()
    sweepTimer = setInterval(sweep, Math.max(100, Math.floor(lease.leaseMs / 3)))
    sweepTimer.unref()
  }

  async function status(eventSlug: string, guid: string): Promise<Result<OrderStatus, OrderError>> {
    const order = await orderOfEvent(db, eventSlug, guid)
    if (!order) return err({ code: 'order_not_found' })
    return ok({
      orderState: order.state,
      errors: order.errors,
      confirmationDateEpochMs: order.confirmationDateEpochMs,
    })
  }

  async function summary(
    eventSlug: string,
    guid: string,
  ): Promise<Result<OrderSummary, OrderError>> {
    const order = await orderOfEvent(db, eventSlug, guid)
    const event = order ? await catalogue.event(order.eventSlug) : null
    const device = order && event ? await catalogue.eventDevice(event.slug, order.deviceId) : null
    if (!order || !event || !device) return err({ code: 'order_not_found' })
    const [content, plays] = await Promise.all([
      contentByKey(db, order.executionContentKey),
      playsOfOrder(db, order.guid),
    ])
    return ok(
      orderSummary(
        {
          ...order,
          contentUrl: content?.url ?? null,
          contentType: content?.type ?? null,
          contentImageUrl: content ? contentImageUrl(content) : null,
          plays,
        },
        event,
        device,
      ),
    )
  }

  // spec §7 call 10: marketing e-mails are opt-in (default off); the sponsor-sharing consent is
  // shown only for a branded event.
  async function defaults(
    eventSlug: string,
    deviceId: string,
  ): Promise<Result<OrderDefaults, OrderError>> {
    const event = await catalogue.event(eventSlug)
    if (!event) return err({ code: 'event_not_found' })
    if (!(await catalogue.eventDevice(event.slug, deviceId))) {
      return err({ code: 'device_not_found' })
    }
    return ok({
      marketingAcknowledgement: { willReceive: false },
      isShareInfoWithSponsorVisible: event.branded,
    })
  }

  // spec §7 call 11: a setup intent for this checkout, bound to a checkoutSecretKey.
  async function createSetup(): Promise<Result<SetupIntentResponse, OrderError>> {
    let setup: Awaited<ReturnType<typeof payment.createSetup>>
    try {
      setup = await payment.createSetup()
    } catch (error) {
      log.error('payment provider unreachable', { error })
      return err({ code: 'payment_unavailable' })
    }
    const checkoutSecretKey = `cks_${randomBytes(24).toString('base64url')}`
    await insertPaymentSetup(db, {
      checkoutSecretKey,
      provider: payment.name,
      customerId: setup.customerId,
      clientSecret: setup.clientSecret,
      setupIntentId: setup.setupIntentId,
    })
    return ok({
      provider: payment.name,
      publishableKey: payment.publishableKey,
      clientSecret: setup.clientSecret,
      customerId: setup.customerId,
      checkoutSecretKey,
    })
  }

  // api-v1: the local provider's card form; Stripe's documented test cards and outcomes.
  async function confirmLocalCard(
    card: LocalConfirmRequest,
  ): Promise<Result<LocalConfirmResponse, OrderError>> {
    if (payment.name !== 'local') return err({ code: 'local_cards_disabled' })
    const setup = await setupByClientSecret(db, card.clientSecret)
    if (!setup) return err({ code: 'payment_form_expired' })
    if (setup.status === 'succeeded') return err({ code: 'payment_already_saved' })
    const current = new Date(now())
    const expired =
      card.expYear < current.getUTCFullYear() ||
      (card.expYear === current.getUTCFullYear() && card.expMonth < current.getUTCMonth() + 1)
    if (expired) {
      return err({
        code: 'card_declined',
        declineCode: 'expired_card',
        message: messages.cardExpired,
      })
    }
    const outcome = cardOutcome(card.cardNumber)
    if (outcome.kind === 'declined') {
      return err({ code: 'card_declined', declineCode: outcome.code, message: outcome.message })
    }
    // Only the brand and the last four digits are kept: never the number or the code.
    const saved = { brand: cardBrand(card.cardNumber), last4: card.cardNumber.slice(-4) }
    await saveLocalCard(db, {
      checkoutSecretKey: setup.checkoutSecretKey,
      paymentMethodId: `pm_local_${randomBytes(8).toString('hex')}`,
      ...saved,
      chargeOutcome: outcome.kind === 'charge_declined' ? outcome.message : null,
    })
    return ok({ status: 'succeeded', card: saved })
  }

  return {
    place,
    replay,
    processOrder,
    recover,
    status,
    summary,
    defaults,
    createSetup,
    confirmLocalCard,
    startRecovery,
    /**
     * Stops claiming orders, waits for those being processed, and hands back any lease still held
     * (used before closing the database).
     */
    drain: async () => {
      stopped = true
      if (sweepTimer) clearInterval(sweepTimer)
      await sweeping
      while (inflight.size > 0) await Promise.allSettled([...inflight])
      await releaseOrderLeases(db, lease.owner)
    },
  }
}
