import { createHash, randomBytes } from 'node:crypto'
import { isLocale, type Locale } from '../../domain/locale.ts'
import type { OrderState } from '../../domain/order-state.ts'
import type { Database, Queryable } from '../platform/db/client.ts'
import type { Logger } from '../platform/log.ts'
import type { ErasurePageView } from './erasure-page.ts'
import { erasureLink, insertErasureLink, markErasureLinkUsed } from './erasure-repo.ts'
import type { OrderLifetime } from './lifetime.ts'
import { orderKeepingData } from './lifetime-repo.ts'

// The shopper's "Forget my data" link, in the footer of every mail of an order: one random token per
// mail (256 bits, base64url), kept only as its SHA-256, lasting until the order's data goes by its
// lifetime anyway. Opening it shows a page and changes nothing; its button posts back (Origin
// checked) and the order is forgotten at once through the lifetime's own path (lifetime.ts: every
// module's forgetter runs), but only once no slot of the order is still to play: before that the
// page says from when. A second post only says it is done.

type Summary = {
  locale: string
  confirmationCode: string
  orderState: OrderState
  slots: readonly { endEpochMs: number }[]
  device: { timeZoneId: string }
}

export type ErasureDeps = {
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

const hashOf = (token: string) => createHash('sha256').update(token).digest('hex')

export function createErasureLinks(deps: ErasureDeps) {
  const { database: db, lifetime } = deps

  type Found = {
    hash: string
    guid: string
    eventSlug: string
    forgotten: boolean
    locale: Locale
    summary: Summary
  }

  async function find(token: string): Promise<Found | null> {
    if (!/^[A-Za-z0-9_-]{43}$/.test(token)) return null
    const hash = hashOf(token)
    const link = await erasureLink(db, hash, deps.now())
    if (!link) return null
    const found = await deps.summary(link.eventSlug, link.orderGuid)
    if (!found.ok) return null
    const summary = found.value
    const locale: Locale = isLocale(summary.locale) ? summary.locale : 'en'
    return {
      hash,
      guid: link.orderGuid,
      eventSlug: link.eventSlug,
      forgotten: link.forgotten,
      locale,
      summary,
    }
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
     * A new link for one mail of the order (null: its data is forgotten already). Stored hashed; it
     * lasts as long as the data it erases.
     */
    async link(guid: string): Promise<string | null> {
      const order = await orderKeepingData(db, guid)
      if (!order) return null
      const until = (await lifetime.personalDataUntil(order)) ?? deps.now() + lifetime.ttlMs
      const token = randomBytes(32).toString('base64url')
      await insertErasureLink(db, {
        tokenHash: hashOf(token),
        orderGuid: guid,
        expiresAtEpochMs: Math.max(until, deps.now() + lifetime.ttlMs),
      })
      return `${deps.origin().replace(/\/+$/, '')}${erasurePath(token)}`
    },

    /** What the link's page shows (null: unknown or expired). Changes nothing. */
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
      await markErasureLinkUsed(db, found.hash, now)
      deps.log.info("order's personal data forgotten on the shopper's request", {
        guid: found.guid,
      })
      return { state: 'forgotten', locale: found.locale }
    },
  }
}

export type ErasureLinks = ReturnType<typeof createErasureLinks>
