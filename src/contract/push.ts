import * as v from 'valibot'
import { issue, LocaleSchema } from './common'
import { endpoint } from './endpoint'

// api-v1 "Play alerts": "tell me when it plays". The page subscribes the browser with the Push API
// (the shop's VAPID key from `key`) and hands the subscription to the order; the server's
// `play-alerts` job sends, in the subscription's language, 5 minutes before each bought slot and
// when the first play of a slot is proven (src/domain/play-alerts.ts). The worker shows what arrives
// (PlayAlertPayload below; sw/push.ts).

/** base64url without padding, as PushSubscription.toJSON() writes the keys. */
const base64url = (bytes: number) =>
  v.pipe(
    v.string(),
    v.regex(/^[A-Za-z0-9_-]+={0,2}$/, issue('push_key_invalid')),
    v.check(
      (s) => Math.floor((s.replace(/=+$/, '').length * 3) / 4) === bytes,
      issue('push_key_invalid'),
    ),
  )

export const PushSubscriptionRequestSchema = v.strictObject({
  endpoint: v.pipe(
    v.string(),
    v.maxLength(1000),
    v.url(issue('push_endpoint_invalid')),
    // a regex, not v.startsWith: the shop's pages import this contract, and each valibot action
    // any of them uses is in the first screen's chunk
    v.regex(/^https:\/\//, issue('push_endpoint_invalid')),
  ),
  // PushSubscription.toJSON() sends it; the shop does not use it
  expirationTime: v.optional(v.nullable(v.number())),
  keys: v.strictObject({
    // the browser's P-256 public key, uncompressed (65 bytes), and its 16-byte auth secret (RFC 8291)
    p256dh: base64url(65),
    auth: base64url(16),
  }),
  /** The language the alerts are written in (the page's). */
  locale: LocaleSchema,
})
export type PushSubscriptionRequest = v.InferInput<typeof PushSubscriptionRequestSchema>

export const PushSubscriptionSchema = v.object({
  /** SHA-256 of the endpoint, base64url: the page finds its own subscription by it. */
  id: v.string(),
  locale: LocaleSchema,
  createdAtEpochMs: v.number(),
})
export type PushSubscriptionInfo = v.InferOutput<typeof PushSubscriptionSchema>

export const PushSubscriptionsSchema = v.object({
  subscriptions: v.array(PushSubscriptionSchema),
})

export const PushKeySchema = v.object({
  /** The VAPID public key (RFC 8292), base64url: PushManager.subscribe's applicationServerKey. */
  publicKey: v.string(),
})

const ORDER_PATH = '/order/events/{eventSlug}/orders/{guid}/push-subscriptions'

export const push = {
  key: endpoint({
    name: 'getPushKey',
    method: 'GET',
    path: '/push/key',
    summary: "The shop's VAPID public key, to subscribe a browser with",
    response: PushKeySchema,
  }),
  subscriptions: endpoint({
    name: 'listPushSubscriptions',
    method: 'GET',
    path: ORDER_PATH,
    summary: "The browsers told when the order's shout plays",
    response: PushSubscriptionsSchema,
    errors: ['order_not_found'],
  }),
  subscribe: endpoint({
    name: 'subscribePush',
    method: 'POST',
    path: ORDER_PATH,
    summary:
      'Tell this browser when the shout plays (a Push API subscription); the same again renews it',
    body: PushSubscriptionRequestSchema,
    response: PushSubscriptionSchema,
    status: 201,
    errors: [
      'order_not_found',
      'cross_origin',
      'push_service_not_allowed',
      'play_alerts_closed',
      'play_alerts_over',
      'too_many_requests',
    ],
  }),
  unsubscribe: endpoint({
    name: 'unsubscribePush',
    method: 'DELETE',
    path: `${ORDER_PATH}/{id}`,
    summary: 'Stop telling this browser',
    status: 204,
    errors: ['order_not_found', 'cross_origin', 'push_subscription_not_found', 'too_many_requests'],
  }),
} as const

/** What a play alert carries to the service worker (encrypted end to end, RFC 8291). */
export const PlayAlertPayloadSchema = v.object({
  kind: v.picklist(['soon', 'played']),
  title: v.pipe(v.string(), v.maxLength(200)),
  body: v.pipe(v.string(), v.maxLength(500)),
  /** The order page, in the shopper's language: a path of the shop. */
  url: v.pipe(v.string(), v.regex(/^\//), v.maxLength(500)),
  /** One notification per order and slot: "it played" replaces "plays soon". */
  tag: v.string(),
  /** The instant the alert speaks of (the notification's timestamp). */
  atEpochMs: v.number(),
  eventSlug: v.string(),
  guid: v.string(),
})
export type PlayAlertPayload = v.InferOutput<typeof PlayAlertPayloadSchema>
