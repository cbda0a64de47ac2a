// Background retry of order status polling. The page registers an order it placed; the worker
// checks its status with back-off until it is no longer Processing, writes the final state to IndexedDB
// and tells every open page. It runs from a Background Sync event where the browser has one, and
// otherwise whenever the worker is woken (a page message, install/activate); the page also re-checks
// on start, on 'online' and on visibility change (src/app/lib/pwa.ts) for browsers such as Safari.
import { get, set, update } from 'idb-keyval'
import * as v from 'valibot'
import { pathOf } from '../src/contract/endpoint'
import { OrderStatusSchema, order as orderApi } from '../src/contract/order'
import { IDB_KEYS, type PendingOrder, type SettledOrder, SW_MESSAGES } from '../src/contract/sw'
import { ORDER_WATCH_MAX_MS, orderRetryDelayMs } from './cache-policy'

export async function addPendingOrder(order: PendingOrder): Promise<void> {
  await update<PendingOrder[]>(IDB_KEYS.pendingOrders, (list = []) =>
    list.some((o) => o.guid === order.guid) ? list : [...list, order],
  )
}

export async function removePendingOrder(guid: string): Promise<void> {
  await update<PendingOrder[]>(IDB_KEYS.pendingOrders, (list = []) =>
    list.filter((o) => o.guid !== guid),
  )
}

/** One status check. Returns the settled order, or null while it is still Processing. Throws on network errors. */
export async function checkOrderOnce(
  order: PendingOrder,
  fetchImpl: typeof fetch,
  now: () => number,
): Promise<SettledOrder | null> {
  const res = await fetchImpl(
    pathOf(orderApi.status, { eventSlug: order.eventSlug, guid: order.guid }),
    {
      cache: 'no-store',
      headers: { accept: 'application/json' },
    },
  )
  if (res.status === 404) {
    return {
      eventSlug: order.eventSlug,
      guid: order.guid,
      orderState: 'Failed',
      errors: [],
      confirmationDateEpochMs: null,
      settledAt: now(),
    }
  }
  if (!res.ok) throw new Error(`status check answered ${res.status}`)
  const parsed = v.safeParse(OrderStatusSchema, await res.json())
  if (!parsed.success) throw new Error('status check answered an unexpected body')
  const body = parsed.output
  if (body.orderState === 'Processing') return null
  return {
    eventSlug: order.eventSlug,
    guid: order.guid,
    orderState: body.orderState,
    errors: body.errors,
    ...(body.codes ? { codes: body.codes } : {}),
    ...(body.params ? { params: body.params } : {}),
    confirmationDateEpochMs: body.confirmationDateEpochMs,
    settledAt: now(),
  }
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms))

/**
 * Polls every pending order with back-off for up to `budgetMs`. Returns true when none is left pending,
 * so a Background Sync handler can ask the browser to retry later by throwing otherwise.
 */
export async function pollPendingOrders(
  notify: (settled: SettledOrder) => Promise<void>,
  budgetMs = 5 * 60 * 1000,
  fetchImpl: typeof fetch = fetch,
  now: () => number = Date.now,
): Promise<boolean> {
  const deadline = now() + budgetMs
  for (let attempt = 0; ; attempt++) {
    const pending = (await get<PendingOrder[]>(IDB_KEYS.pendingOrders)) ?? []
    if (pending.length === 0) return true
    for (const order of pending) {
      if (now() - order.since > ORDER_WATCH_MAX_MS) {
        await removePendingOrder(order.guid)
        continue
      }
      try {
        const settled = await checkOrderOnce(order, fetchImpl, now)
        if (settled) {
          await set(IDB_KEYS.settledOrder(order.guid), settled)
          await removePendingOrder(order.guid)
          await notify(settled)
        }
      } catch {
        // offline or server unreachable: try again after the back-off
      }
    }
    const delay = orderRetryDelayMs(attempt)
    if (now() + delay > deadline) {
      const left = (await get<PendingOrder[]>(IDB_KEYS.pendingOrders)) ?? []
      return left.length === 0
    }
    await sleep(delay)
  }
}

export function settledMessage(settled: SettledOrder) {
  return { type: SW_MESSAGES.orderSettled, guid: settled.guid, result: settled }
}
