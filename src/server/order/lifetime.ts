import { personalDataUntilEpochMs } from '../../domain/data-lifetime.ts'
import type { CatalogueReads } from '../catalogue/service.ts'
import type { Database, Queryable } from '../platform/db/client.ts'
import type { LeaseSettings } from '../platform/lease.ts'
import type { Logger } from '../platform/log.ts'
import {
  anonymiseOrder,
  holdForForgetting,
  orderKeepingData,
  ordersKeepingData,
} from './lifetime-repo.ts'

// An order's personal data does not live for ever: ORDER_CONTENT_TTL_DAYS after the end of its last
// slot, its contact details (names, e-mail, phone, marketing choice) and the request as the shopper
// sent it are blanked, and every module holding something of it forgets it (its photo, video and
// rendered content; its mails' addresses and texts; …) through `onForget`. The accounting stays:
// amounts, slots, states, payments, refunds and proofs of play.

/** Orders read per statement: a long backlog is taken in short reads. */
const BATCH = 200

/** What a module is told when an order's personal data goes: it forgets its own part of it. */
export type ForgottenOrder = { guid: string; contentKey: string }
export type OrderForgetter = (order: ForgottenOrder) => Promise<void>

export type OrderLifetimeDeps = {
  database: Database
  catalogue: CatalogueReads
  log: Logger
  /** ORDER_CONTENT_TTL_DAYS in milliseconds. */
  orderDataTtlMs: number
  /** This instance's leases on orders in Processing: an order left there is forgotten under one. */
  lease: LeaseSettings
}

export function createOrderLifetime(deps: OrderLifetimeDeps) {
  const { database: db, catalogue, log } = deps
  const forgetters: OrderForgetter[] = []
  // not the processing lease's owner: this instance's own processing never mistakes it for its own
  const holder = `forgetting:${deps.lease.owner}`

  /** When this order's personal data goes: its last slot's end plus the lifetime (null: unknown slots). */
  async function personalDataUntil(order: {
    eventSlug: string
    deviceId: string
    slotNumbers: number[]
  }): Promise<number | null> {
    const event = await catalogue.event(order.eventSlug)
    if (!event) return null
    const device = await catalogue.eventDevice(event.slug, order.deviceId)
    // a billboard the event no longer lists: its zone is unknown, the latest one on Earth bounds it
    const zone = device?.timeZoneId ?? 'Etc/GMT+12'
    return personalDataUntilEpochMs(event, zone, order.slotNumbers, deps.orderDataTtlMs)
  }

  /**
   * Forgets one order's personal data: each module's part first, then the order's own row, so a
   * crash in between leaves the order to be forgotten again by the next sweep (every step may run twice).
   */
  async function forget(
    order: ForgottenOrder & { processing: boolean },
    nowMs: number,
    within?: (tx: Queryable) => Promise<void>,
  ): Promise<boolean> {
    // An order left Processing (its instance gone, or its processing failing over and over) is
    // forgotten too, under a lease of its own: an instance processing it right now keeps it
    if (order.processing && !(await holdForForgetting(db, order.guid, holder, deps.lease.leaseMs)))
      return false
    const forgotten = { guid: order.guid, contentKey: order.contentKey }
    for (const forgetter of forgetters) await forgetter(forgotten)
    return anonymiseOrder(db, order.guid, nowMs, holder, within)
  }

  return {
    /** Adds a module's part of forgetting an order (its rows naming the order: addresses, texts, files). */
    onForget(forgetter: OrderForgetter): void {
      forgetters.push(forgetter)
    },
    personalDataUntil,
    /** ORDER_CONTENT_TTL_DAYS in milliseconds. */
    ttlMs: deps.orderDataTtlMs,
    /**
     * Forgets one order's personal data now, through the same steps as the sweep (the shopper's
     * own request: order/erasure.ts): true once it is forgotten, false while an instance is
     * processing it. `within` runs in the transaction that blanks the order, only if this call
     * blanks it.
     */
    async forgetNow(
      guid: string,
      nowMs: number,
      within?: (tx: Queryable) => Promise<void>,
    ): Promise<boolean> {
      const order = await orderKeepingData(db, guid)
      if (!order) return true
      const due = { guid, contentKey: order.executionContentKey, processing: order.processing }
      return forget(due, nowMs, within)
    },
    /** Forgets the personal data of every order whose lifetime has ended; answers how many. */
    async sweep(nowMs: number): Promise<number> {
      let after: { createdAtEpochMs: number; guid: string } | null = null
      let forgotten = 0
      for (;;) {
        // an order is placed before its first slot: one made after now - lifetime cannot be due
        const page = await ordersKeepingData(db, nowMs - deps.orderDataTtlMs, after, BATCH)
        for (const order of page) {
          const until = await personalDataUntil(order)
          if (until === null || until > nowMs) continue
          const due = {
            guid: order.guid,
            contentKey: order.executionContentKey,
            processing: order.processing,
          }
          if (await forget(due, nowMs)) forgotten++
        }
        const last = page.at(-1)
        if (!last || page.length < BATCH) break
        after = { createdAtEpochMs: last.createdAtEpochMs, guid: last.guid }
      }
      if (forgotten > 0) log.info("orders' personal data forgotten", { orders: forgotten })
      return forgotten
    },
  }
}

export type OrderLifetime = ReturnType<typeof createOrderLifetime>
