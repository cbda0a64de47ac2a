import { order } from '../../../contract/order'
import { callApi } from '../../lib/api'
import { eventStore } from '../../stores/event'
import { orderStore } from '../../stores/order'

/** spec §7 call 10: skipped when the defaults are already held. */
export async function fetchOrderDefaults(): Promise<void> {
  const device = orderStore.activeDevice
  const event = eventStore.event
  if (orderStore.orderDefaults || !device || !event) return
  try {
    const defaults = await callApi(order.defaults, {
      query: { deviceId: device.deviceId, eventSlug: event.slug },
    })
    orderStore.orderDefaults = defaults
    orderStore.willReceiveMarketing = defaults.marketingAcknowledgement.willReceive
  } catch {
    // the consents keep their unticked default
  }
}

/** spec §7 call 11: a SetupIntent (client secret, customer id, checkout secret key). */
export async function ensureSetupIntent(): Promise<void> {
  if (orderStore.payment) return
  const answer = await callApi(order.setupIntent, {})
  orderStore.payment = {
    provider: answer.provider,
    publishableKey: answer.publishableKey,
    clientSecret: answer.clientSecret,
    customerId: answer.customerId,
    checkoutSecretKey: answer.checkoutSecretKey,
  }
}

export type LocalCard = { number: string; expiry: string; cvc: string }

/** api-v1: the local provider's test-card confirmation. Throws ApiError (402 declined...). */
export async function confirmLocalCard(card: LocalCard): Promise<void> {
  if (!orderStore.payment) throw new Error('no setup intent')
  const [month = '', year = ''] = card.expiry.split('/').map((part) => part.trim())
  const answer = await callApi(order.localConfirm, {
    body: {
      clientSecret: orderStore.payment.clientSecret,
      cardNumber: card.number,
      expMonth: Number(month),
      expYear: year.length === 2 ? 2000 + Number(year) : Number(year),
      cvc: card.cvc.trim(),
    },
  })
  orderStore.card = answer.card
}
