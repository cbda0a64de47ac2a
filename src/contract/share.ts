import * as v from 'valibot'
import { LocaleSchema } from './common'
import { endpoint } from './endpoint'

// api-v1 "Keepsake pages": the shopper shares an order's shout as a public page, /s/{shareId} (the
// server's own page, readable without JavaScript, in the language chosen here), with its picture
// (the shout on the billboard, 1200×630) at /s/{shareId}/keepsake.jpg. The order's page makes it and
// revokes it; the page never names the order, the shopper's contact or the order's guid.

export const ShareRequestSchema = v.strictObject({
  /** The language the page speaks. */
  locale: LocaleSchema,
})
export type ShareRequest = v.InferInput<typeof ShareRequestSchema>

export const ShareSchema = v.object({
  /** 128 random bits, base64url: the page's address. */
  shareId: v.string(),
  /** The page: /s/{shareId}. */
  path: v.string(),
  /** Its picture, a JPEG to download: /s/{shareId}/keepsake.jpg. */
  imagePath: v.string(),
  locale: LocaleSchema,
  createdAtEpochMs: v.number(),
})
export type ShareInfo = v.InferOutput<typeof ShareSchema>

export const CurrentShareSchema = v.object({ share: v.nullable(ShareSchema) })

const ORDER_PATH = '/order/events/{eventSlug}/orders/{guid}/share'

export const share = {
  current: endpoint({
    name: 'getShare',
    method: 'GET',
    path: ORDER_PATH,
    summary: "The order's keepsake page, if it is shared",
    response: CurrentShareSchema,
    errors: ['order_not_found'],
  }),
  create: endpoint({
    name: 'createShare',
    method: 'POST',
    path: ORDER_PATH,
    summary: "Share the order's shout as a public page (the same again answers the same page)",
    body: ShareRequestSchema,
    response: ShareSchema,
    status: 201,
    errors: ['order_not_found', 'cross_origin', 'share_not_allowed', 'too_many_requests'],
  }),
  revoke: endpoint({
    name: 'revokeShare',
    method: 'DELETE',
    path: ORDER_PATH,
    summary: 'Stop sharing: the page and its picture are gone',
    status: 204,
    errors: ['order_not_found', 'cross_origin', 'share_not_found', 'too_many_requests'],
  }),
} as const
