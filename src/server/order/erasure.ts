import { createHmac, timingSafeEqual } from 'node:crypto'
import { isLocale, type Locale } from '../../domain/locale.ts'
import type { OrderState } from '../../domain/order-state.ts'
import type { Database, Queryable } from '../platform/db/client.ts'
import type { Logger } from '../platform/log.ts'
import { newSecret } from '../platform/secret.ts'
import type { ErasurePageView } from './erasure-page.ts'
import { ensureErasureKey, erasureOrder } from './erasure-repo.ts'
import type { OrderLifetime } from './lifetime.ts'
import { orderKeepingData } from './lifetime-repo.ts'

// The shopper's "Forget my data" link, in the footer of every mail of an order: signed, no sign-in.
// It names the order and when it expires (when the order's data goes by its lifetime anyway), with
// an HMAC-SHA256 of both under the server's key (ERASURE_LINK_KEY; unset, never in prod, a key made
// once and kept in the database, the same for every instance): checked before any lookup, and no
// other order's link nor a later expiry can be made from one. Opening it shows a page and changes
// nothing; its button posts back (Origin checked) and the order is forgotten at once through the
// lifetime's own path (lifetime.ts: every module's forgetter runs), but only once no slot of the
// order is still to play: before that the page says from when. A second post only says it is done.

type Summary = {
  locale: string
  confirmationCode: string
  orderState: OrderState
  slots: readonly { endEpochMs: number }[]
  device: { timeZoneId: string }
}

export type ErasureDeps = {
  /** ERASURE_LINK_KEY, or undefined: a key made once and kept in the database. */
  configuredKey: string | undefined
  database: Database
  log: Logger
  now: () => number
  lifetime: OrderLifetime
  /** The shop's public origin, for the link. */
  origin: () => string
  summary: (
    eventSlug: string,
    guid: string,
  ) => Promise<{ ok: true; value: Summary } | { ok: false }>
  /**
   * The mail confirming the erasure, rendered before its address goes (mail/service.ts): it is added
   * to the outbox in the transaction that blanks the order, so it exists exactly when the order was
   * forgotten on this request, once.
   */
  erasureMail?: (
    eventSlug: string,
    guid: string,
  ) => Promise<((tx: Queryable) => Promise<void>) | null>
}

/** Orders whose slots will never play: nothing waits for their data. */
const NOT_PLAYING: ReadonlySet<OrderState> = new Set(['Failed', 'Cancelled'])

export const erasurePath = (token: string) => `/s/forget/${encodeURIComponent(token)}`

/** What the key signs: the order and the link's expiry in whole seconds, for this use only. */
const signed = (guid: string, expiresSec: number) => `shouts-erasure-link:${guid}:${expiresSec}`
/** order guid . expiry (epoch seconds) . HMAC-SHA256 (base64url) */
const LINK =
  /^([0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12})\.([0-9]{1,12})\.([A-Za-z0-9_-]{43})$/

export function createErasureLinks(deps: ErasureDeps) {
  const { database: db, lifetime } = deps

  let key: Promise<string> | null = null
  const loadKey = (): Promise<string> => {
    key ??= (
      deps.configuredKey
        ? Promise.resolve(deps.configuredKey)
        : ensureErasureKey(db, 'generated', newSecret())
    ).catch((error) => {
      key = null
      throw error
    })
    return key
  }
  const macOf = async (guid: string, expiresSec: number) =>
    createHmac('sha256', await loadKey())
      .update(signed(guid, expiresSec))
      .digest()

  type Found = { guid: string; forgotten: boolean; locale: Locale; summary: Summary }
  type FoundOrder = Found & { eventSlug: string }

  /** The order of a link whose signature holds and which has not expired (null otherwise). */
  async function find(token: string): Promise<FoundOrder | null> {
    const parts = LINK.exec(token)
    if (!parts) return null
    const [, guid = '', expires = '', mac = ''] = parts
    const expiresSec = Number(expires)
    const given = Buffer.from(mac, 'base64url')
    const expected = await macOf(guid, expiresSec)
    if (given.length !== expected.length || !timingSafeEqual(given, expected)) return null
    if (expiresSec * 1000 <= deps.now()) return null
    const order = await erasureOrder(db, guid)
    if (!order) return null
    const found = await deps.summary(order.eventSlug, guid)
    if (!found.ok) return null
    const summary = found.value
    const locale: Locale = isLocale(summary.locale) ? summary.locale : 'en'
    return { guid, eventSlug: order.eventSlug, forgotten: order.forgotten, locale, summary }
  }

  /** The instant from which the order may be forgotten: its last slot's end (0: nothing plays). */
  const playedBy = (summary: Summary) =>
    NOT_PLAYING.has(summary.orderState)
      ? 0
      : Math.max(0, ...summary.slots.map((slot) => slot.endEpochMs))

  function viewOf(found: Found, token: string): ErasurePageView {
    const { locale, summary } = found
    if (found.forgotten) return { state: 'forgotten', locale }
    const from = playedBy(summary)
    if (from > deps.now()) {
      return { state: 'wait', locale, fromEpochMs: from, timeZoneId: summary.device.timeZoneId }
    }
    return {
      state: 'ask',
      locale,
      confirmationCode: summary.confirmationCode,
      action: erasurePath(token),
    }
  }

  return {
    /**
     * The order's link (null: its data is forgotten already), signed, lasting as long as the data
     * it erases: the same for each mail of the order.
     */
    async link(guid: string): Promise<string | null> {
      const order = await orderKeepingData(db, guid)
      if (!order) return null
      const until = (await lifetime.personalDataUntil(order)) ?? deps.now() + lifetime.ttlMs
      const expiresSec = Math.ceil(Math.max(until, deps.now() + lifetime.ttlMs) / 1000)
      const mac = (await macOf(guid, expiresSec)).toString('base64url')
      return `${deps.origin().replace(/\/+$/, '')}${erasurePath(`${guid}.${expiresSec}.${mac}`)}`
    },

    /** What the link's page shows (null: forged, altered or expired). Changes nothing. */
    async page(token: string): Promise<ErasurePageView | null> {
      const found = await find(token)
      return found ? viewOf(found, token) : null
    },

    /** The page's button: forgets the order now when nothing of it is still to play. */
    async confirm(token: string): Promise<ErasurePageView | null> {
      const found = await find(token)
      if (!found) return null
      const view = viewOf(found, token)
      if (view.state !== 'ask') return view
      const now = deps.now()
      const mail = await deps.erasureMail?.(found.eventSlug, found.guid)
      if (!(await lifetime.forgetNow(found.guid, now, mail ?? undefined)))
        return { state: 'busy', locale: found.locale }
      deps.log.info("order's personal data forgotten on the shopper's request", {
        guid: found.guid,
      })
      return { state: 'forgotten', locale: found.locale }
    },
  }
}

export type ErasureLinks = ReturnType<typeof createErasureLinks>
