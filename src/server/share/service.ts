import { randomBytes } from 'node:crypto'
import type { Readable } from 'node:stream'
import type { OrderSummary, ShareInfo } from '../../contract/index.ts'
import { keepsakeAiring, mayShowKeepsake } from '../../domain/keepsake.ts'
import { isLocale, type Locale, withLocalePrefix } from '../../domain/locale.ts'
import type { BillboardPhoto } from '../catalogue/reads.ts'
import type { Database } from '../platform/db/client.ts'
import { say } from '../platform/i18n.ts'
import { localDayAndTime } from '../platform/local-time.ts'
import type { Logger } from '../platform/log.ts'
import { err, ok, type Result } from '../platform/result.ts'
import { composeKeepsake, readPhoto } from './image.ts'
import { KEEPSAKE_MESSAGES } from './messages.ts'
import type { KeepsakeView } from './page.ts'
import {
  deleteShareOfOrder,
  insertShare,
  type ShareRow,
  setImageName,
  shareById,
  shareOfOrder,
} from './repo.ts'

// Keepsake pages (api-v1 "Keepsake pages"): a confirmed order's shout as a public page, /s/{shareId},
// made and revoked from the order's page (the order's guid is what its shopper holds). The page is
// made from the order's summary at each visit (order/), so it follows the order: once the order is no
// longer confirmed the page is not shown, and once the order's personal data is forgotten (its
// lifetime, order/lifetime.ts) the share itself is deleted with its picture. The picture is made
// once, on its first request, and kept in the content storage (a folder or a bucket).

/** What the page reads of an order's summary (never its failures, contact or guid). */
type Summary = Omit<OrderSummary, 'errors' | 'codes' | 'params'>

type OrderNotFound = { code: 'order_not_found' }

export type ShareError = OrderNotFound | { code: 'share_not_allowed' } | { code: 'share_not_found' }

/** Where the pictures are kept: the content storage (content/storage.ts). */
export type PictureStorage = {
  newName(extension: 'jpg'): string
  write(name: string, data: Buffer): Promise<void>
  read(name: string): Promise<Buffer>
  remove(name: string): Promise<void>
}

export type ShareDeps = {
  database: Database
  log: Logger
  now: () => number
  /** The order as its shopper sees it (order/service.ts). */
  summary: (eventSlug: string, guid: string) => Promise<Result<Summary, { code: string }>>
  /** The stored picture of the order's content, by its address in the summary (content/). */
  contentPicture: (url: string) => Promise<Readable | null>
  /** The billboard's photo and screen corners (catalogue/reads.ts). */
  billboardPhoto: (deviceId: string) => Promise<BillboardPhoto | null>
  storage: PictureStorage
  /** The shop's origin for absolute addresses (link previews): PUBLIC_BASE_URL, else the listening one. */
  origin: () => string
}

/** 128 random bits, base64url (22 characters). */
const newShareId = () => randomBytes(16).toString('base64url')
const SHARE_ID = /^[A-Za-z0-9_-]{22}$/

export const sharePath = (shareId: string) => `/s/${shareId}`
export const shareImagePath = (shareId: string) => `/s/${shareId}/keepsake.jpg`

export type ShareService = ReturnType<typeof createShareService>

export function createShareService(deps: ShareDeps) {
  const { database: db, log } = deps
  /** Pictures being made on this instance, by share: one making for many first requests. */
  const making = new Map<string, Promise<Buffer | null>>()

  const info = (row: ShareRow): ShareInfo => ({
    shareId: row.shareId,
    path: sharePath(row.shareId),
    imagePath: shareImagePath(row.shareId),
    locale: isLocale(row.locale) ? row.locale : 'en',
    createdAtEpochMs: row.createdAtEpochMs,
  })

  async function orderOf(eventSlug: string, guid: string): Promise<Result<Summary, OrderNotFound>> {
    const found = await deps.summary(eventSlug, guid)
    return found.ok ? ok(found.value) : err({ code: 'order_not_found' })
  }

  /** A share still shown: its row, and its order confirmed (else null: the page is gone). */
  async function shown(shareId: string): Promise<{ row: ShareRow; order: Summary } | null> {
    if (!SHARE_ID.test(shareId)) return null
    const row = await shareById(db, shareId)
    if (!row) return null
    const order = await deps.summary(row.eventSlug, row.orderGuid)
    if (!order.ok || !mayShowKeepsake(order.value.orderState)) return null
    if (!order.value.contentImageUrl) return null
    return { row, order: order.value }
  }

  async function removePicture(name: string | null) {
    if (!name) return
    await deps.storage.remove(name).catch((error: unknown) => {
      log.warn('keepsake picture not removed', { error })
    })
  }

  async function makePicture(row: ShareRow, order: Summary, keep = true): Promise<Buffer | null> {
    const stream = order.contentImageUrl ? await deps.contentPicture(order.contentImageUrl) : null
    if (!stream) return null
    const chunks: Buffer[] = []
    for await (const chunk of stream) chunks.push(chunk as Buffer)
    const billboard = await deps.billboardPhoto(order.device.deviceId)
    const photo = billboard ? await readPhoto(billboard.imageUrl, deps.origin()) : null
    const picture = await composeKeepsake({
      content: Buffer.concat(chunks),
      photo,
      corners: billboard?.screenCorners ?? null,
    })
    if (!keep) return picture
    const name = deps.storage.newName('jpg')
    await deps.storage.write(name, picture)
    if (!(await setImageName(db, row.shareId, name))) {
      // another instance made it first, or the share went meanwhile: ours is not kept
      await removePicture(name)
      const now = await shareById(db, row.shareId)
      return now?.imageName ? deps.storage.read(now.imageName) : null
    }
    log.info('keepsake picture made', { shareId: row.shareId, placed: Boolean(photo) })
    return picture
  }

  return {
    async share(
      eventSlug: string,
      guid: string,
      locale: Locale,
    ): Promise<Result<ShareInfo, OrderNotFound | { code: 'share_not_allowed' }>> {
      const order = await orderOf(eventSlug, guid)
      if (!order.ok) return order
      if (!mayShowKeepsake(order.value.orderState)) return err({ code: 'share_not_allowed' })
      const row = await insertShare(db, {
        shareId: newShareId(),
        orderGuid: order.value.guid,
        eventSlug: order.value.eventSlug,
        locale,
        nowMs: deps.now(),
      })
      log.info('keepsake shared', { orderGuid: order.value.guid, shareId: row.shareId })
      return ok(info(row))
    },

    async current(
      eventSlug: string,
      guid: string,
    ): Promise<Result<ShareInfo | null, OrderNotFound>> {
      const order = await orderOf(eventSlug, guid)
      if (!order.ok) return order
      const row = await shareOfOrder(db, order.value.guid)
      return ok(row ? info(row) : null)
    },

    async revoke(
      eventSlug: string,
      guid: string,
    ): Promise<Result<null, OrderNotFound | { code: 'share_not_found' }>> {
      const order = await orderOf(eventSlug, guid)
      if (!order.ok) return order
      const gone = await deleteShareOfOrder(db, order.value.guid)
      if (!gone) return err({ code: 'share_not_found' })
      await removePicture(gone.imageName)
      log.info('keepsake revoked', { orderGuid: order.value.guid, shareId: gone.shareId })
      return ok(null)
    },

    /** The page's contents, or null: no such share, or its order is not shown (page.ts renders). */
    async page(shareId: string): Promise<KeepsakeView | null> {
      const found = await shown(shareId)
      if (!found) return null
      const { row, order } = found
      const locale: Locale = isLocale(row.locale) ? row.locale : 'en'
      const place = [order.device.location, order.device.city].filter(Boolean).join(', ')
      const airing = keepsakeAiring(order.slots, order.plays)
      let airingLine: string | null = null
      if (airing) {
        const at = airing.kind === 'played' ? airing.firstEpochMs : airing.startEpochMs
        const { day, time } = localDayAndTime(locale, at, order.device.timeZoneId)
        airingLine =
          airing.kind === 'played'
            ? say(locale, KEEPSAKE_MESSAGES.played, { count: airing.count, day, time })
            : say(locale, KEEPSAKE_MESSAGES.upcoming, { day, time })
      }
      const origin = deps.origin()
      const entry = withLocalePrefix(`/${encodeURIComponent(order.eventSlug)}`, locale)
      return {
        locale,
        place,
        eventName: order.eventName,
        airingLine,
        pageUrl: `${origin}${sharePath(row.shareId)}`,
        imagePath: shareImagePath(row.shareId),
        imageUrl: `${origin}${shareImagePath(row.shareId)}`,
        makeYourOwnHref: `${entry}?device=${encodeURIComponent(order.device.deviceId)}`,
      }
    },

    /** The picture (a JPEG), made on its first request and kept; null when the page is gone. */
    async picture(shareId: string): Promise<Buffer | null> {
      const found = await shown(shareId)
      if (!found) return null
      if (found.row.imageName) {
        const kept = await deps.storage.read(found.row.imageName).catch((error: unknown) => {
          // the storage lost it (a bucket emptied by hand): made again, for this answer
          log.warn('keepsake picture missing', { shareId, error })
          return null
        })
        return kept ?? makePicture({ ...found.row, imageName: null }, found.order, false)
      }
      let pending = making.get(shareId)
      if (!pending) {
        pending = makePicture(found.row, found.order).finally(() => making.delete(shareId))
        making.set(shareId, pending)
      }
      return pending
    },

    /** Forgets the order's share and its picture (its personal data's lifetime ended): idempotent. */
    async forgetOrder(guid: string): Promise<void> {
      const gone = await deleteShareOfOrder(db, guid)
      if (gone) await removePicture(gone.imageName)
    },
  }
}
