import { createHash } from 'node:crypto'
import type { Agent } from 'node:https'
import webpush from 'web-push'
import type {
  OrderPlay,
  OrderSummary,
  PlayAlertPayload,
  PushSubscriptionInfo,
  PushSubscriptionRequest,
} from '../../contract/index.ts'
import { isLocale, type Locale, withLocalePrefix } from '../../domain/locale.ts'
import {
  mayReceivePlayAlerts,
  PLAY_ALERT_LEAD_MS,
  type PlayAlert,
  playAlertsDue,
  playAlertsEndEpochMs,
} from '../../domain/play-alerts.ts'
import type { ProblemData } from '../../domain/problems.ts'
import type { Database } from '../platform/db/client.ts'
import { say } from '../platform/i18n.ts'
import { localTime } from '../platform/local-time.ts'
import type { Logger } from '../platform/log.ts'
import { err, ok, type Result } from '../platform/result.ts'
import { PUSH_MESSAGES } from './messages.ts'
import {
  activeOrders,
  alertsOfOrder,
  claimAlert,
  deleteEndpoint,
  deleteOrderSubscriptions,
  deleteSubscription,
  forgetOrderAlerts,
  type PushTarget,
  type SentAlert,
  settleAlert,
  storedVapidKeys,
  subscriptionsOfOrder,
  sweepEnded,
  targetsOfOrder,
  upsertSubscription,
  type VapidKeys,
} from './repo.ts'

// Web Push, "tell me when it plays" (api-v1 "Play alerts"). A shopper's browser subscribes to an
// order's alerts; the `play-alerts` job (jobs.ts: one instance at a time) asks the domain rule
// (src/domain/play-alerts.ts) which alerts are due now, claims each alert per browser in sent_pushes
// before sending it (at most once), and sends it with the web-push library: RFC 8291 encryption
// (aes128gcm), RFC 8292 VAPID, a TTL that ends when the alert would be stale, an urgency. A push
// service answering 404/410 ends the subscription; 429 and 5xx are tried again while the alert is
// due (3 attempts); anything else, a timeout included, is not (it may have arrived).
// The order (its state, slots, billboard) is the order module's, the proofs of play the player's.

/** What play alerts read of an order's summary (never its failures). */
type Summary = Omit<OrderSummary, 'errors' | 'codes' | 'params'>

type OrderNotFound = { code: 'order_not_found' }

export type PushError =
  | OrderNotFound
  | { code: 'push_service_not_allowed' }
  | { code: 'play_alerts_closed' }
  | { code: 'play_alerts_over' }
  | { code: 'push_subscription_not_found' }

export type PushSettings = {
  /** VAPID_PUBLIC_KEY and VAPID_PRIVATE_KEY, or null: the pair stored in the database (made once). */
  keys: VapidKeys | null
  /** VAPID_SUBJECT (a mailto: or https: URL a push service may contact). */
  subject: string
  /** PUSH_SERVICE_HOSTS: the hosts the shop sends to ("*.example.com" for its subdomains). */
  serviceHosts: readonly string[]
  /** How long a push service has to answer. */
  timeoutMs: number
  /** The TLS agent the sends go through (tests: one that trusts the stand-in's certificate). */
  agent?: Agent
}

export type PushDeps = {
  database: Database
  log: Logger
  now: () => number
  /** The order as its shopper sees it (order/service.ts). */
  summary: (eventSlug: string, guid: string) => Promise<Result<Summary, { code: string }>>
  /** The billboard's proofs of play of an order (player/service.ts). */
  proofs: (guid: string) => Promise<OrderPlay[]>
  settings: PushSettings
}

/** A 429 or 5xx is tried again on the next passes while the alert is due, this many times in all. */
const MAX_ATTEMPTS = 3
/** Orders looked at per pass. */
const ORDERS_PER_PASS = 500

/** The subscription's public id: SHA-256 of its endpoint, base64url (the page computes the same). */
export const subscriptionId = (endpoint: string) =>
  createHash('sha256').update(endpoint).digest('base64url')

/** Whether the endpoint's host is one of PUSH_SERVICE_HOSTS ("*.host" matches its subdomains). */
export function allowedPushService(endpoint: string, hosts: readonly string[]): boolean {
  let url: URL
  try {
    url = new URL(endpoint)
  } catch {
    return false
  }
  if (url.protocol !== 'https:' || url.username || url.password) return false
  return hosts.some((pattern) =>
    pattern.startsWith('*.')
      ? url.hostname.endsWith(pattern.slice(1)) && url.port === ''
      : url.host === pattern,
  )
}

export type PushService = ReturnType<typeof createPushService>

export function createPushService(deps: PushDeps) {
  const { database: db, log, settings } = deps
  let keys: Promise<VapidKeys> | null = null

  /** The configured pair, else the stored one (the first instance to start makes and keeps it). */
  function vapidKeys(): Promise<VapidKeys> {
    keys ??= settings.keys
      ? Promise.resolve(settings.keys)
      : storedVapidKeys(db, webpush.generateVAPIDKeys()).catch((error: unknown) => {
          keys = null
          throw error
        })
    return keys
  }

  async function orderOf(eventSlug: string, guid: string): Promise<Result<Summary, OrderNotFound>> {
    const found = await deps.summary(eventSlug, guid)
    return found.ok ? ok(found.value) : err({ code: 'order_not_found' })
  }

  async function subscribe(
    eventSlug: string,
    guid: string,
    request: PushSubscriptionRequest,
  ): Promise<
    Result<PushSubscriptionInfo, Exclude<PushError, { code: 'push_subscription_not_found' }>>
  > {
    const order = await orderOf(eventSlug, guid)
    if (!order.ok) return order
    const summary = order.value
    if (!mayReceivePlayAlerts(summary.orderState)) return err({ code: 'play_alerts_closed' })
    const endsAtEpochMs = playAlertsEndEpochMs(summary.slots)
    if (deps.now() >= endsAtEpochMs) return err({ code: 'play_alerts_over' })
    if (!allowedPushService(request.endpoint, settings.serviceHosts)) {
      return err({ code: 'push_service_not_allowed' })
    }
    const row = await upsertSubscription(db, {
      orderGuid: summary.guid,
      id: subscriptionId(request.endpoint),
      eventSlug: summary.eventSlug,
      endpoint: request.endpoint,
      p256dh: request.keys.p256dh,
      auth: request.keys.auth,
      locale: request.locale,
      startsAtEpochMs: Math.min(...summary.slots.map((s) => s.startEpochMs)) - PLAY_ALERT_LEAD_MS,
      endsAtEpochMs,
    })
    log.info('play alerts on', { orderGuid: summary.guid })
    return ok(info(row))
  }

  const info = (row: { id: string; locale: string; createdAtEpochMs: number }) => ({
    id: row.id,
    locale: isLocale(row.locale) ? row.locale : ('en' as const),
    createdAtEpochMs: row.createdAtEpochMs,
  })

  /** The alert as the worker shows it, in the browser's language, at the billboard's time. */
  function payloadOf(alert: PlayAlert, order: Summary, language: string): PlayAlertPayload {
    const locale: Locale = isLocale(language) ? language : 'en'
    const messages = PUSH_MESSAGES[alert.kind]
    const time = localTime(locale, alert.atEpochMs, order.device.timeZoneId)
    const billboard = [order.device.location, order.device.city].filter(Boolean).join(', ')
    const page = withLocalePrefix(
      `/${encodeURIComponent(order.eventSlug)}/order/confirmation`,
      locale,
    )
    return {
      kind: alert.kind,
      title: say(locale, messages.title, { time }),
      body: say(locale, messages.body, { billboard, time }),
      url: `${page}?order=${encodeURIComponent(order.guid)}`,
      tag: `${order.guid}:${alert.slotNumber}`,
      atEpochMs: alert.atEpochMs,
      eventSlug: order.eventSlug,
      guid: order.guid,
    }
  }

  type Delivery = { status: 'sent' } | { status: 'retry' | 'failed'; failure: ProblemData }

  async function deliver(
    target: PushTarget,
    payload: PlayAlertPayload,
    alert: PlayAlert,
  ): Promise<Delivery> {
    const vapid = await vapidKeys()
    const ttlSeconds = Math.max(0, Math.ceil((alert.expiresEpochMs - deps.now()) / 1000))
    try {
      await webpush.sendNotification(
        { endpoint: target.endpoint, keys: { p256dh: target.p256dh, auth: target.auth } },
        JSON.stringify(payload),
        {
          vapidDetails: { subject: settings.subject, ...vapid },
          TTL: ttlSeconds,
          // "plays in 5 minutes" must wake the phone; "it played" may wait for a good moment
          urgency: alert.kind === 'soon' ? 'high' : 'normal',
          contentEncoding: 'aes128gcm',
          timeout: settings.timeoutMs,
          ...(settings.agent ? { agent: settings.agent } : {}),
        },
      )
      return { status: 'sent' }
    } catch (error) {
      if (error instanceof webpush.WebPushError) {
        const status = error.statusCode
        if (status === 404 || status === 410) {
          await deleteEndpoint(db, target.id)
          log.info('push subscription gone', { subscriptionId: target.id, status })
          return { status: 'failed', failure: { code: 'push_subscription_gone' } }
        }
        const failure = { code: 'push_service_refused', params: { status } }
        log.warn('push refused', { subscriptionId: target.id, status })
        return { status: status === 429 || status >= 500 ? 'retry' : 'failed', failure }
      }
      // no answer (a timeout, a reset): it may have arrived, so it is not sent again
      // the error's name and code only: its message may carry the endpoint, the browser's address
      const { name, code } = error as { name?: string; code?: string }
      log.warn('push service unreachable', { subscriptionId: target.id, error: code ?? name })
      return { status: 'failed', failure: { code: 'push_service_unreachable' } }
    }
  }

  /** One pass of the `play-alerts` job: every alert due now, to every browser, each at most once. */
  async function sendDue(signal?: AbortSignal): Promise<number> {
    const now = deps.now()
    await sweepEnded(db, now)
    let sent = 0
    for (const active of await activeOrders(db, now, ORDERS_PER_PASS)) {
      if (signal?.aborted) break
      const found = await deps.summary(active.eventSlug, active.orderGuid)
      if (!found.ok || !mayReceivePlayAlerts(found.value.orderState)) {
        // a cancelled or failed order (or one no longer there) is told nothing, ever
        await deleteOrderSubscriptions(db, active.orderGuid)
        continue
      }
      const order = found.value
      const due = playAlertsDue(
        { orderState: order.orderState, slots: order.slots, plays: await deps.proofs(order.guid) },
        deps.now(),
      )
      if (due.length === 0) continue
      const targets = await targetsOfOrder(db, order.guid)
      for (const alert of due) {
        for (const target of targets) {
          if (signal?.aborted) return sent
          const key = { orderGuid: order.guid, subscriptionId: target.id, alertKey: alert.key }
          if (!(await claimAlert(db, key, MAX_ATTEMPTS, deps.now()))) continue
          const outcome = await deliver(target, payloadOf(alert, order, target.locale), alert)
          await settleAlert(db, key, outcome)
          if (outcome.status === 'sent') {
            sent++
            log.info('play alert sent', { orderGuid: order.guid, alert: alert.key })
          }
        }
      }
    }
    return sent
  }

  return {
    /** The VAPID public key browsers subscribe with. */
    publicKey: async () => (await vapidKeys()).publicKey,
    subscribe,
    async list(
      eventSlug: string,
      guid: string,
    ): Promise<Result<PushSubscriptionInfo[], OrderNotFound>> {
      const order = await orderOf(eventSlug, guid)
      if (!order.ok) return order
      if (!mayReceivePlayAlerts(order.value.orderState)) {
        // cancelled or failed: it will never be told anything, so it keeps no browser
        await deleteOrderSubscriptions(db, order.value.guid)
        return ok([])
      }
      return ok((await subscriptionsOfOrder(db, order.value.guid)).map(info))
    },
    async unsubscribe(
      eventSlug: string,
      guid: string,
      id: string,
    ): Promise<Result<null, OrderNotFound | { code: 'push_subscription_not_found' }>> {
      const order = await orderOf(eventSlug, guid)
      if (!order.ok) return order
      if (!(await deleteSubscription(db, order.value.guid, id))) {
        return err({ code: 'push_subscription_not_found' })
      }
      log.info('play alerts off', { orderGuid: order.value.guid })
      return ok(null)
    },
    sendDue,
    /** What was sent for an order, per browser and alert. */
    sentOf: (guid: string): Promise<SentAlert[]> => alertsOfOrder(db, guid),
    /** Forgets the order's browsers and what was sent to them (its personal data's lifetime ended):
     * idempotent, as the order's lifetime may tell it twice. */
    forgetOrder: (guid: string) => forgetOrderAlerts(db, guid),
  }
}
