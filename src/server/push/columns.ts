import { columnMap } from '../platform/db/columns.ts'
import type { SentAlert, SubscriptionRow, VapidKeys } from './repo.ts'

// The Web Push tables (migration 0022) as repo.ts's rows name their fields: the select and
// `returning` lists are written from these declarations.

export const PUSH_KEYS = columnMap<VapidKeys>('push_keys', {
  publicKey: 'public_key',
  privateKey: 'private_key',
})

export const SUBSCRIPTIONS = columnMap<SubscriptionRow & { orderGuid: string; eventSlug: string }>(
  'push_subscriptions',
  {
    id: 'id',
    locale: 'locale',
    createdAtEpochMs: { column: 'created_at', epochMs: true },
    orderGuid: 'order_guid',
    eventSlug: 'event_slug',
  },
)

export const SENT_PUSHES = columnMap<SentAlert>('sent_pushes', {
  subscriptionId: 'subscription_id',
  alertKey: 'alert_key',
  status: 'status',
})
