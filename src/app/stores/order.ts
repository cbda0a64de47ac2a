import { get } from 'idb-keyval'
import { proxy } from 'valtio'
import type { Device, PromoResponse } from '../../contract/catalogue'
import type { ContentGenerationRequest, Upload } from '../../contract/content'
import type {
  LocalConfirmResponse,
  Agreements as OrderAgreements,
  OrderDefaults,
  OrderState,
  SetupIntentResponse,
} from '../../contract/order'
import { IDB_KEYS } from '../../contract/sw'
import type { Locale } from '../../domain/locale'
import type { ShoutTime } from '../../domain/order-rules'
import type { ProblemData } from '../../domain/problems'
import { TTL } from '../../domain/storage'
import type { ContactInfo } from '../../domain/validation'
import { persist, removeEnvelope } from './persist'
import type { RequestStatus } from './request-status'

// The shapes come from the rules (src/domain) and the wire (src/contract); the store only says
// which of them an order in progress holds, and what a draft may still lack.

/** The setup intent's answer, kept to confirm the card and to place the order (spec §7 call 11). */
export type Payment = SetupIntentResponse
export type PersonalImage = { uploadId: string; url: string | null; kind: Upload['kind'] }
/** The ticks of the review page; sponsor, marketing and SMS consents are separate fields. */
export type Agreements = Pick<
  OrderAgreements,
  'safetyWarning' | 'terms' | 'noChanges' | 'privacyPolicy' | 'userGeneratedContentPolicy'
>

// spec §3 "Order state".
export type OrderStoreState = {
  eventSlug: string | null
  activeDevice: Device | null
  confirmationCode: string | null
  orderLocale: Locale
  shoutTimes: ShoutTime[]
  previewUrl: string | null
  agreements: Agreements
  buyerName: string
  recipientName: string
  multilineMessage: string
  personalImage: PersonalImage | null
  payment: Payment | null
  /** spec §3 form-submitted flag: the card form was submitted successfully */
  formSubmitted: boolean
  card: LocalConfirmResponse['card'] | null
  orderGuid: string | null
  orderStatus: OrderState | null
  confirmationDateEpochMs: number | null
  contactInfo: ContactInfo
  /** spec §3 orderErrorMessages: why the order failed, as problems (the app translates them) */
  orderProblems: ProblemData[]
  orderPromo: PromoResponse | null
  orderPromoError: ProblemData | null
  contentGenReq: ContentGenerationRequest | null
  contentKey: string | null
  orderDefaults: OrderDefaults | null
  willReceiveMarketing: boolean
  willReceiveSms: boolean
  shareInfoWithSponsor: boolean
  hasFetchedPromotionData: boolean
  sendOrderStatus: RequestStatus
  /** one Idempotency-Key per order attempt; a retry of the same body reuses it */
  idempotency: { key: string; body: string } | null
}

const noAgreements = (): Agreements => ({
  safetyWarning: false,
  terms: false,
  noChanges: false,
  privacyPolicy: false,
  userGeneratedContentPolicy: false,
})

const initial = (): OrderStoreState => ({
  eventSlug: null,
  activeDevice: null,
  confirmationCode: null,
  orderLocale: 'en',
  shoutTimes: [],
  previewUrl: null,
  agreements: noAgreements(),
  buyerName: '',
  recipientName: '',
  multilineMessage: '',
  personalImage: null,
  payment: null,
  formSubmitted: false,
  card: null,
  orderGuid: null,
  orderStatus: null,
  confirmationDateEpochMs: null,
  contactInfo: { firstName: '', lastName: '', email: '', phone: '' },
  orderProblems: [],
  orderPromo: null,
  orderPromoError: null,
  contentGenReq: null,
  contentKey: null,
  orderDefaults: null,
  willReceiveMarketing: false,
  willReceiveSms: false,
  shareInfoWithSponsor: false,
  hasFetchedPromotionData: false,
  sendOrderStatus: null,
  idempotency: null,
})

export const orderStore = proxy<OrderStoreState>(initial())

/** spec §4: reset clears all order data and related browser entries. */
export function resetOrder(): void {
  Object.assign(orderStore, initial())
  void removeEnvelope('order')
  void removeEnvelope('active-device')
}

/** An order belongs to one event: another event starts a fresh order. */
export function bindOrderToEvent(slug: string): void {
  if (orderStore.eventSlug === slug) return
  // A lost tap: no event yet is no other event's order. After a server render the saved
  // order may still be on its way (stores/persist.ts) while the shopper already chose a billboard:
  // a reset here threw that choice away and the step guard sent them back to the location step.
  if (orderStore.eventSlug !== null) resetOrder()
  orderStore.eventSlug = slug
}

/**
 * Whether an order of an earlier visit is to be re-sent (its attempt saved before it went
 * out) or checked again (placed, still Processing). Only then does the start load the sending code
 * (stores/order-sending.ts), which the first screen does not otherwise need.
 */
export async function orderToResume(): Promise<boolean> {
  if (orderStore.orderGuid && orderStore.orderStatus === 'Processing') return true
  return (await get(IDB_KEYS.orderAttempt).catch(() => undefined)) !== undefined
}

export function setActiveDevice(device: Device | null): void {
  if (orderStore.activeDevice?.deviceId !== device?.deviceId) {
    // slots and content are made for one billboard's size and calendar
    orderStore.shoutTimes = []
    orderStore.contentGenReq = null
    orderStore.contentKey = null
  }
  orderStore.activeDevice = device
}

// ---------- persistence (spec §9: order data 60 min; active device 1 h) ----------

// What is saved of the order; its type is the store's own, so the schema cannot drift from it. The
// fields a shopper is still typing (contact, names) are read as plain strings: a draft is not yet valid.
export type PersistedOrder = Pick<
  OrderStoreState,
  | 'eventSlug'
  | 'shoutTimes'
  | 'agreements'
  | 'buyerName'
  | 'recipientName'
  | 'multilineMessage'
  | 'personalImage'
  | 'payment'
  | 'formSubmitted'
  | 'card'
  | 'orderGuid'
  | 'confirmationCode'
  | 'orderStatus'
  | 'confirmationDateEpochMs'
  | 'contactInfo'
  | 'orderPromo'
  | 'contentGenReq'
  | 'contentKey'
  | 'orderDefaults'
  | 'willReceiveMarketing'
  | 'willReceiveSms'
  | 'shareInfoWithSponsor'
  | 'idempotency'
  | 'orderLocale'
>

persist(orderStore, {
  key: 'order',
  version: 1,
  ttlMs: TTL.orderData,
  schema: async () => (await import('./saved-state')).PersistedOrderSchema,
  pick: (): PersistedOrder | null => {
    const o = orderStore
    if (!o.eventSlug) return null
    return JSON.parse(
      JSON.stringify({
        eventSlug: o.eventSlug,
        shoutTimes: o.shoutTimes,
        agreements: o.agreements,
        buyerName: o.buyerName,
        recipientName: o.recipientName,
        multilineMessage: o.multilineMessage,
        personalImage: o.personalImage,
        payment: o.payment,
        formSubmitted: o.formSubmitted,
        card: o.card,
        orderGuid: o.orderGuid,
        confirmationCode: o.confirmationCode,
        orderStatus: o.orderStatus,
        confirmationDateEpochMs: o.confirmationDateEpochMs,
        contactInfo: o.contactInfo,
        orderPromo: o.orderPromo,
        contentGenReq: o.contentGenReq,
        contentKey: o.contentKey,
        orderDefaults: o.orderDefaults,
        willReceiveMarketing: o.willReceiveMarketing,
        willReceiveSms: o.willReceiveSms,
        shareInfoWithSponsor: o.shareInfoWithSponsor,
        idempotency: o.idempotency,
        orderLocale: o.orderLocale,
      }),
    ) as PersistedOrder
  },
  apply: (data) => {
    // A saved order of another event than the one the shopper is in by now is not this
    // order (bindOrderToEvent); the first save replaces it
    if (orderStore.eventSlug && data.eventSlug !== orderStore.eventSlug) return
    Object.assign(orderStore, data)
  },
})

persist(orderStore, {
  key: 'active-device',
  version: 1,
  ttlMs: TTL.activeDevice,
  schema: async () => (await import('./saved-state')).DeviceSchema,
  pick: () => (orderStore.activeDevice ? { ...orderStore.activeDevice } : null),
  apply: (device) => {
    orderStore.activeDevice = device
  },
})
