import { del, get, set } from 'idb-keyval'
import * as v from 'valibot'
import { addPendingOrder, removePendingOrder } from '../../../sw/order-watch'
import { problemsOf } from '../../contract/common'
import { type OrderRequestInput, OrderStateSchema, order as orderApi } from '../../contract/order'
import { IDB_KEYS, type OrderAttempt, type SettledOrder, SW_MESSAGES } from '../../contract/sw'
import { confirmationCode, orderSendBlocker } from '../../domain/order-rules'
import type { ProblemData } from '../../domain/problems'
import { mayCheckOrderStatus, orderStatusDelayMs, TTL } from '../../domain/storage'
import { ApiError, callApi } from '../lib/api'
import { environmentForHost } from '../lib/config'
import { onOrderSettled, postToWorker } from '../lib/pwa'
import { currentLocale } from '../locale/i18n'
import { eventStore } from './event'
import { orderStore } from './order'
import { setStatus } from './request-status'
import { templatesStore } from './templates'

const wait = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms))

/** spec §3 order-creation payload (api-v1 OrderRequest), from the stores. */
export function buildOrderRequest(): OrderRequestInput | null {
  const o = orderStore
  const event = eventStore.event
  if (!event || !o.activeDevice || !o.payment) return null
  return {
    entries: [{ deviceId: o.activeDevice.deviceId, slots: o.shoutTimes.map((s) => s.slotNumber) }],
    eventSlug: event.slug,
    emailAddress: o.contactInfo.email.trim(),
    // spec §7 call 12: Standard in production, Test otherwise
    orderType: environmentForHost(window.location.host) === 'prod' ? 'Standard' : 'Test',
    customer: {
      firstName: o.contactInfo.firstName.trim(),
      lastName: o.contactInfo.lastName.trim(),
      phoneNumber: o.contactInfo.phone.trim(),
      marketingAcknowledgement: { willReceive: o.willReceiveMarketing },
    },
    executionContentKey: templatesStore.generatedContent?.key ?? '',
    checkout: {
      stripeData: {
        customerId: o.payment.customerId,
        promoCode: o.orderPromo?.promoCode ?? null,
        checkoutSecretKey: o.payment.checkoutSecretKey,
      },
      state: 'New',
    },
    contentSource: o.contentGenReq ? { ...o.contentGenReq } : null,
    locale: currentLocale(),
    agreements: {
      safetyWarning: o.agreements.safetyWarning,
      terms: o.agreements.terms,
      noChanges: o.agreements.noChanges,
      privacyPolicy: o.agreements.privacyPolicy,
      userGeneratedContentPolicy: o.agreements.userGeneratedContentPolicy,
      shareInfoWithSponsor: o.shareInfoWithSponsor,
      marketingEmails: o.willReceiveMarketing,
      sms: o.willReceiveSms,
    },
  }
}

/** One Idempotency-Key per order attempt: the same body (a retry) keeps its key. */
function idempotencyKeyFor(body: string): string {
  if (orderStore.idempotency?.body === body) return orderStore.idempotency.key
  const key = crypto.randomUUID()
  orderStore.idempotency = { key, body }
  return key
}

const UNKNOWN_ERROR: ProblemData = { code: 'unknown_error' }

function failOrder(problems: ProblemData[]): void {
  orderStore.orderProblems = [...orderStore.orderProblems, ...problems]
  orderStore.orderStatus = 'Failed'
  setStatus(orderStore, 'sendOrderStatus', 'Failure')
}

/**
 * spec §4 "Send order": Running at start; after placing, store guid, confirmation code and state,
 * then poll the status while Processing; any other state ends with Success, Failed also shows the
 * returned errors; any thrown error sets Failed and Failure.
 */
export async function sendOrder(): Promise<void> {
  // this module is loaded at start only when there is an order to resume (src/app/start.tsx)
  wireResume()
  orderStore.orderProblems = []
  setStatus(orderStore, 'sendOrderStatus', 'Running')
  // spec §8: without generated content the order is not sent; without its metadata it fails
  const blocker = orderSendBlocker({
    generatedContentKey: templatesStore.generatedContent?.key,
    contentGenReq: orderStore.contentGenReq,
  })
  if (blocker?.code === 'missing_generated_content') {
    orderStore.orderProblems = [blocker]
    setStatus(orderStore, 'sendOrderStatus', 'Failure')
    return
  }
  if (blocker) {
    console.warn(blocker.code)
    failOrder([blocker])
    return
  }
  const request = buildOrderRequest()
  if (!request) {
    failOrder([UNKNOWN_ERROR])
    return
  }
  const body = JSON.stringify(request)
  const key = idempotencyKeyFor(body)
  // The key and the request are in IndexedDB before the request goes out, so a lost
  // answer (or the app closed meanwhile) is retried with the same key: never a second order.
  const attempt: OrderAttempt = { key, body, eventSlug: request.eventSlug, since: Date.now() }
  await set(IDB_KEYS.orderAttempt, attempt).catch(() => undefined)
  await placeAttempt(attempt)
}

/** Network failures (no API answer), as opposed to an answer with an error status. */
const isNetworkError = (error: unknown) => !(error instanceof ApiError) && error instanceof Error

function waitForOnline(): Promise<void> {
  if (navigator.onLine) return Promise.resolve()
  return new Promise((resolve) =>
    window.addEventListener('online', () => resolve(), { once: true }),
  )
}

// A lost answer is re-sent automatically this many times (back-off 1 s, 2 s, 4 s …, waiting for
// the network to come back in between); after that spec §8's message shows and the shopper's
// retry still sends the same key.
const PLACE_RETRIES = 5

async function placeAttempt(attempt: OrderAttempt): Promise<void> {
  const request = JSON.parse(attempt.body) as OrderRequestInput
  setStatus(orderStore, 'sendOrderStatus', 'Running')
  try {
    let created: Awaited<ReturnType<typeof postOrder>> | null = null
    for (let retry = 0; created === null; retry++) {
      try {
        created = await postOrder(request, attempt.key)
      } catch (error) {
        if (!isNetworkError(error) || retry >= PLACE_RETRIES) throw error
        await waitForOnline()
        await wait(1000 * 2 ** retry)
      }
    }
    await del(IDB_KEYS.orderAttempt).catch(() => undefined)
    orderStore.orderGuid = created.guid
    orderStore.confirmationCode = confirmationCode(created.guid)
    orderStore.orderStatus = created.orderState
    orderStore.orderLocale = currentLocale()
    if (created.orderState === 'Processing') {
      // the service worker keeps checking while the page is gone (Background Sync)
      await addPendingOrder({
        eventSlug: attempt.eventSlug,
        guid: created.guid,
        since: Date.now(),
      }).catch(() => undefined)
      postToWorker({
        type: SW_MESSAGES.watchOrder,
        eventSlug: attempt.eventSlug,
        guid: created.guid,
      })
    }
    await pollOrderStatus(attempt.eventSlug, created.guid)
  } catch (error) {
    if (error instanceof ApiError) {
      // an answer: this attempt is over (a new attempt gets a new key when its body differs)
      await del(IDB_KEYS.orderAttempt).catch(() => undefined)
      failOrder(error.problems.length > 0 ? error.problems : [UNKNOWN_ERROR])
    } else if (error instanceof Error) {
      failOrder([{ code: 'unknown_error_sorry' }])
    } else {
      failOrder([UNKNOWN_ERROR])
    }
  }
}

function postOrder(request: OrderRequestInput, key: string) {
  return callApi(orderApi.place, { body: request, headers: { 'Idempotency-Key': key } })
}

/** The final state of an order, from the page's own check or the service worker's. */
function applySettled(
  settled: Pick<
    SettledOrder,
    'guid' | 'orderState' | 'errors' | 'codes' | 'params' | 'confirmationDateEpochMs'
  >,
): void {
  void del(IDB_KEYS.settledOrder(settled.guid)).catch(() => undefined)
  void removePendingOrder(settled.guid).catch(() => undefined)
  if (orderStore.orderGuid !== settled.guid) return
  const state = v.safeParse(OrderStateSchema, settled.orderState)
  orderStore.orderStatus = state.success ? state.output : 'Failed'
  orderStore.confirmationDateEpochMs = settled.confirmationDateEpochMs
  // A Cancelled order carries its reason in `errors`, as a Failed one does
  if (orderStore.orderStatus === 'Failed' || orderStore.orderStatus === 'Cancelled') {
    // the page's check, the worker's and the bank's answer may each bring the same reasons
    const known = new Set(orderStore.orderProblems.map((p) => JSON.stringify(p)))
    const added = problemsOf(settled).filter((p) => !known.has(JSON.stringify(p)))
    orderStore.orderProblems = [...orderStore.orderProblems, ...added]
  }
  setStatus(orderStore, 'sendOrderStatus', 'Success')
}

let resumeWired = false

/**
 * On start, an order request whose answer never came is re-sent with its key; an order
 * still Processing takes the final state the worker stored, or is checked again. Also on 'online'
 * and when the page becomes visible (browsers without Background Sync, such as Safari).
 */
function wireResume(): void {
  if (resumeWired) return
  resumeWired = true
  onOrderSettled(applySettled)
  window.addEventListener('online', () => void resumeOrders())
  document.addEventListener('visibilitychange', () => {
    if (document.visibilityState === 'visible') void resumeOrders()
  })
}

export async function resumeOrders(): Promise<void> {
  wireResume()
  const attempt = await get<OrderAttempt>(IDB_KEYS.orderAttempt).catch(() => undefined)
  if (attempt) {
    const fresh = Date.now() - attempt.since < TTL.orderData
    if (!fresh || orderStore.orderGuid || orderStore.eventSlug !== attempt.eventSlug) {
      await del(IDB_KEYS.orderAttempt).catch(() => undefined)
    } else if (orderStore.sendOrderStatus !== 'Running' && navigator.onLine) {
      await placeAttempt(attempt)
      return
    }
  }
  const guid = orderStore.orderGuid
  const slug = orderStore.eventSlug
  if (!guid || !slug || orderStore.orderStatus !== 'Processing') return
  const settled = await get<SettledOrder>(IDB_KEYS.settledOrder(guid)).catch(() => undefined)
  if (settled) {
    applySettled(settled)
    return
  }
  if (navigator.onLine) void pollOrderStatus(slug, guid)
}

/**
 * spec §7 call 13: before each re-check wait 500 ms × the check number; stop once the check
 * number exceeds the maximum (10) with the spec's message.
 */
const polling = new Map<string, Promise<void>>()

export function pollOrderStatus(eventSlug: string, guid: string): Promise<void> {
  const running = polling.get(guid)
  if (running) return running
  const run = pollLoop(eventSlug, guid).finally(() => polling.delete(guid))
  polling.set(guid, run)
  return run
}

async function pollLoop(eventSlug: string, guid: string): Promise<void> {
  for (let check = 1, drops = 0; ; check++) {
    if (!mayCheckOrderStatus(check)) {
      failOrder([{ code: 'order_status_timeout' }])
      return
    }
    await wait(orderStatusDelayMs(check))
    let status: Awaited<ReturnType<typeof fetchStatus>>
    try {
      status = await fetchStatus(eventSlug, guid)
    } catch (error) {
      if (isNetworkError(error)) {
        // A dropped network is not an answer; the order stays Processing and is checked
        // again when the network is back (the service worker keeps checking meanwhile)
        check--
        drops++
        await waitForOnline()
        await wait(Math.min(30_000, 1000 * 2 ** Math.min(drops, 5)))
        if (orderStore.orderGuid !== guid || orderStore.orderStatus !== 'Processing') return
        continue
      }
      failOrder([(error instanceof ApiError && error.problems[0]) || UNKNOWN_ERROR])
      return
    }
    if (status.orderState === 'Processing') continue
    applySettled({
      guid,
      orderState: status.orderState,
      errors: status.errors,
      codes: status.codes,
      params: status.params,
      confirmationDateEpochMs: status.confirmationDateEpochMs,
    })
    return
  }
}

function fetchStatus(eventSlug: string, guid: string) {
  return callApi(orderApi.status, { params: { eventSlug, guid } })
}
