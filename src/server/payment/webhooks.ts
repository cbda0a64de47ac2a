import { declineProblemCode } from '../../contract/problems.ts'
import type { ProblemData } from '../../domain/problems.ts'
import type { Database, Queryable } from '../platform/db/client.ts'
import type { Logger } from '../platform/log.ts'
import { err, ok, type Result } from '../platform/result.ts'
import {
  type DisputeRow,
  disputeById,
  recordWebhookEvent,
  refundNews,
  upsertDispute,
  webhookEventSeen,
} from './events-repo.ts'

// What Stripe tells the shop after the fact, posted to POST /api/v1/payment/stripe/webhook: a
// PaymentIntent settled while nobody waited for it, a refund's real outcome (one can fail days after
// Stripe accepted it), a chargeback and its end. Each event is checked against the endpoint's signing
// secret (the SDK's constructEvent on the raw body, the shop's clock as the time it arrived), then
// acted on once: its id is written in the transaction that acts on it, so an event delivered again
// changes nothing. The work is a few statements, done before the 2xx (Stripe waits up to 20 s); the
// admins' mails go to the outbox and are sent by its jobs.

/** The part of Stripe's Event the shop reads. */
export type StripeEventLike = {
  id: string
  type: string
  data: { object: Record<string, unknown> }
}

/**
 * A PaymentIntent Stripe settled (payment_intent.succeeded / payment_intent.payment_failed), with
 * the order it pays for (its metadata.orderGuid, which the charge sets). The order module decides
 * what it means for an order still waiting for its cardholder (onIntentSettled).
 */
export type IntentSettled = {
  orderGuid: string
  paymentIntentId: string
  succeeded: boolean
  /** why it failed (the card's decline, as a problem), null when it succeeded */
  problem: ProblemData | null
}

/** A dispute opened or closed, for the admins' mails. */
export type DisputeNews = {
  kind: 'opened' | 'closed'
  dispute: DisputeRow
}

export type WebhookRefusal = { code: 'webhooks_not_configured' | 'webhook_signature_invalid' }

/** Stripe signs the time it sent an event; an older signature is refused (the SDK's default). */
const SIGNATURE_TOLERANCE_S = 300

export type StripeWebhooks = ReturnType<typeof createStripeWebhooks>

export function createStripeWebhooks(deps: {
  database: Database
  log: Logger
  now: () => number
  /** STRIPE_WEBHOOK_SECRET; unset, the endpoint takes no events. */
  secret: string | undefined
  /** The order a charge (a PaymentIntent id, as the order keeps it) paid for. */
  orderOfPayment: (paymentId: string) => Promise<{ guid: string } | null>
  /** Writes an audit row in the transaction that acts on the event. */
  audit: (
    tx: Queryable,
    record: { action: string; orderGuid: string | null; detail: Record<string, unknown> },
  ) => Promise<void>
  /** The admins' mails about a dispute (keyed: the same news twice adds nothing). */
  notifyDispute: (news: DisputeNews) => Promise<void>
}) {
  const { database: db, log, now } = deps
  const settledListeners: ((settled: IntentSettled) => Promise<void>)[] = []
  let verifier: Promise<
    (payload: string, header: string, secret: string) => StripeEventLike
  > | null = null

  // The Stripe SDK is loaded at the first event (a shop on the local provider never needs it).
  const verify = () => {
    verifier ??= import('stripe').then(
      ({ default: Stripe }) =>
        (payload: string, header: string, secret: string) =>
          Stripe.webhooks.constructEvent(
            payload,
            header,
            secret,
            SIGNATURE_TOLERANCE_S,
            undefined,
            now(),
          ) as unknown as StripeEventLike,
    )
    return verifier
  }

  /** Checks an event's signature and acts on it once; `handled` is false for one seen before. */
  async function receive(
    payload: string,
    signature: string | undefined,
  ): Promise<Result<{ handled: boolean }, WebhookRefusal>> {
    if (!deps.secret) return err({ code: 'webhooks_not_configured' })
    let event: StripeEventLike
    try {
      event = (await verify())(payload, signature ?? '', deps.secret)
    } catch (error) {
      // The SDK's reason (no signature, a mismatch, too old); never the header, body or secret.
      log.warn('stripe webhook refused: bad signature', {
        reason: error instanceof Error ? error.message.split('\n')[0] : 'unreadable',
        bytes: payload.length,
      })
      return err({ code: 'webhook_signature_invalid' })
    }
    if (await webhookEventSeen(db, event.id)) return ok({ handled: false })
    const handled = await act(event)
    if (handled) log.info('stripe event handled', { id: event.id, type: event.type })
    return ok({ handled })
  }

  async function act(event: StripeEventLike): Promise<boolean> {
    const object = event.data.object
    const nowMs = now()
    const record = (tx: Queryable) =>
      recordWebhookEvent(tx, {
        eventId: event.id,
        type: event.type,
        objectId: str(object.id),
        receivedAtMs: nowMs,
      })
    switch (event.type) {
      case 'payment_intent.succeeded':
      case 'payment_intent.payment_failed': {
        const settled = intentSettled(event.type, object)
        // The listener (the order module) settles the order first; the event is recorded after it,
        // so a crash in between has Stripe deliver it again, and settling is idempotent.
        if (settled) for (const listener of settledListeners) await listener(settled)
        return db.transaction(record)
      }
      case 'refund.created':
      case 'refund.updated':
      case 'refund.failed':
      case 'charge.refund.updated':
        return db.transaction(async (tx) => {
          if (!(await record(tx))) return false
          const refund = refundOf(object)
          if (!refund) return true
          const changed = await refundNews(tx, refund, nowMs)
          if (changed && refund.status === 'failed') {
            await deps.audit(tx, {
              action: 'refund_failed',
              orderGuid: changed.orderGuid,
              detail: { refundId: refund.id, reason: refund.failureReason },
            })
          }
          return true
        })
      case 'charge.refunded':
        return db.transaction(async (tx) => {
          if (!(await record(tx))) return false
          const paymentIntent = str(object.payment_intent)
          const refunded = num(object.amount_refunded)
          if (paymentIntent && refunded !== null) {
            await refundNews(tx, { paymentIntent, refundedCents: refunded }, nowMs)
          }
          return true
        })
      case 'charge.dispute.created':
      case 'charge.dispute.updated':
      case 'charge.dispute.closed':
      case 'charge.dispute.funds_withdrawn':
      case 'charge.dispute.funds_reinstated':
        return disputeEvent(event, record, nowMs)
      default:
        // An event the endpoint was not set to receive: answered 2xx so Stripe stops sending it.
        return db.transaction(record)
    }
  }

  async function disputeEvent(
    event: StripeEventLike,
    record: (tx: Queryable) => Promise<boolean>,
    nowMs: number,
  ): Promise<boolean> {
    const object = event.data.object
    const paymentId = str(object.payment_intent) ?? str(object.charge)
    const id = str(object.id)
    if (!id || !paymentId) return db.transaction(record)
    const order = await deps.orderOfPayment(paymentId)
    const dueBy = num((object.evidence_details as Record<string, unknown> | undefined)?.due_by)
    const created = num(object.created)
    const dispute: DisputeRow = {
      disputeId: id,
      paymentId,
      orderGuid: order?.guid ?? null,
      amountCents: num(object.amount) ?? 0,
      currency: (str(object.currency) ?? 'usd').toUpperCase(),
      reason: str(object.reason) ?? 'general',
      status: str(object.status) ?? 'needs_response',
      evidenceDueEpochMs: dueBy ? dueBy * 1000 : null,
      openedAtEpochMs: created ? created * 1000 : nowMs,
      closedAtEpochMs: event.type === 'charge.dispute.closed' ? nowMs : null,
    }
    const kind =
      event.type === 'charge.dispute.created'
        ? 'opened'
        : event.type === 'charge.dispute.closed'
          ? 'closed'
          : null
    // The mails first, keyed by the dispute and the news: a crash before the event is recorded has
    // Stripe deliver it again, and the same keys add no second mail.
    if (kind) await deps.notifyDispute({ kind, dispute })
    return db.transaction(async (tx) => {
      if (!(await record(tx))) return false
      const known = await disputeById(tx, id)
      await upsertDispute(tx, dispute, nowMs)
      if (kind || !known) {
        await deps.audit(tx, {
          action: kind === 'closed' ? 'payment_dispute_closed' : 'payment_disputed',
          orderGuid: dispute.orderGuid,
          detail: {
            disputeId: id,
            paymentId,
            amountCents: dispute.amountCents,
            currency: dispute.currency,
            reason: dispute.reason,
            status: dispute.status,
          },
        })
      }
      return true
    })
  }

  return {
    /** Whether the endpoint takes events (STRIPE_WEBHOOK_SECRET is set). */
    configured: Boolean(deps.secret),
    receive,
    /**
     * Called for each PaymentIntent Stripe settled, before the event is recorded (so a failure
     * has Stripe send it again): the order module settles an order that waits for its cardholder.
     */
    onIntentSettled(listener: (settled: IntentSettled) => Promise<void>) {
      settledListeners.push(listener)
    },
  }
}

function intentSettled(type: string, intent: Record<string, unknown>): IntentSettled | null {
  const metadata = intent.metadata as Record<string, unknown> | undefined
  const orderGuid = str(metadata?.orderGuid)
  const paymentIntentId = str(intent.id)
  if (!orderGuid || !paymentIntentId) return null
  if (type === 'payment_intent.succeeded') {
    return { orderGuid, paymentIntentId, succeeded: true, problem: null }
  }
  const last = intent.last_payment_error as Record<string, unknown> | undefined
  const code = str(last?.decline_code) ?? str(last?.code) ?? 'card_declined'
  return {
    orderGuid,
    paymentIntentId,
    succeeded: false,
    problem: { code: declineProblemCode(code) },
  }
}

function refundOf(object: Record<string, unknown>) {
  const id = str(object.id)
  const status = str(object.status)
  if (!id || !status) return null
  const metadata = object.metadata as Record<string, unknown> | undefined
  return {
    id,
    status,
    paymentIntent: str(object.payment_intent),
    orderGuid: str(metadata?.orderGuid),
    refundKey: str(metadata?.refundKey),
    failureReason: str(object.failure_reason),
  }
}

const str = (value: unknown): string | null =>
  typeof value === 'string' && value !== '' ? value : null
const num = (value: unknown): number | null =>
  typeof value === 'number' && Number.isFinite(value) ? value : null
