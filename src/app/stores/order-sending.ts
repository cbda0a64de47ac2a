import {
  confirmationCode,
  mayCheckOrderStatus,
  messages,
  OrderCreatedSchema,
  type OrderRequestInput,
  OrderStatusSchema,
  orderSendBlocker,
  orderStatusDelayMs,
} from '../../domain'
import { ApiError, apiGet, apiPost } from '../lib/api'
import { environmentForHost } from '../lib/config'
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

function failOrder(errors: string[]): void {
  orderStore.orderErrorMessages = [...orderStore.orderErrorMessages, ...errors]
  orderStore.orderStatus = 'Failed'
  setStatus(orderStore, 'sendOrderStatus', 'Failure')
}

/**
 * spec §4 "Send order": Running at start; after placing, store guid, confirmation code and state,
 * then poll the status while Processing; any other state ends with Success, Failed also shows the
 * returned errors; any thrown error sets Failed and Failure.
 */
export async function sendOrder(): Promise<void> {
  orderStore.orderErrorMessages = []
  setStatus(orderStore, 'sendOrderStatus', 'Running')
  // spec §8: without generated content the order is not sent; without its metadata it fails
  const blocker = orderSendBlocker({
    generatedContentKey: templatesStore.generatedContent?.key,
    contentGenReq: orderStore.contentGenReq,
  })
  if (blocker === messages.missingGeneratedContent) {
    orderStore.orderErrorMessages = [blocker]
    setStatus(orderStore, 'sendOrderStatus', 'Failure')
    return
  }
  if (blocker) {
    console.warn(blocker)
    failOrder([blocker])
    return
  }
  const request = buildOrderRequest()
  if (!request) {
    failOrder([messages.unknownError])
    return
  }
  const body = JSON.stringify(request)
  try {
    const created = await apiPost('/order/orders', request, OrderCreatedSchema, {
      'Idempotency-Key': idempotencyKeyFor(body),
    })
    orderStore.orderGuid = created.guid
    orderStore.confirmationCode = confirmationCode(created.guid)
    orderStore.orderStatus = created.orderState
    orderStore.orderLocale = currentLocale()
    await pollOrderStatus(request.eventSlug, created.guid)
  } catch (error) {
    if (error instanceof ApiError) {
      failOrder(error.errors.length > 0 ? error.errors : [messages.unknownError])
    } else if (error instanceof Error) {
      failOrder([messages.unknownErrorSorry])
    } else {
      failOrder([messages.unknownError])
    }
  }
}

/**
 * spec §7 call 13: before each re-check wait 500 ms × the check number; stop once the check
 * number exceeds the maximum (10) with the spec's message.
 */
export async function pollOrderStatus(eventSlug: string, guid: string): Promise<void> {
  for (let check = 1; ; check++) {
    if (!mayCheckOrderStatus(check)) {
      failOrder([messages.orderStatusTimeout])
      return
    }
    await wait(orderStatusDelayMs(check))
    let status: Awaited<ReturnType<typeof fetchStatus>>
    try {
      status = await fetchStatus(eventSlug, guid)
    } catch (error) {
      failOrder([
        error instanceof ApiError && error.errors[0] ? error.errors[0] : messages.unknownError,
      ])
      return
    }
    if (status.orderState === 'Processing') continue
    orderStore.orderStatus = status.orderState
    orderStore.confirmationDateEpochMs = status.confirmationDateEpochMs
    if (status.orderState === 'Failed') {
      orderStore.orderErrorMessages = [...orderStore.orderErrorMessages, ...status.errors]
    }
    setStatus(orderStore, 'sendOrderStatus', 'Success')
    return
  }
}

function fetchStatus(eventSlug: string, guid: string) {
  return apiGet(
    `/order/events/${encodeURIComponent(eventSlug)}/orders/${encodeURIComponent(guid)}/status`,
    OrderStatusSchema,
  )
}
