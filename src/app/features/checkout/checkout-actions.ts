import { order } from '../../../contract/order'
import { callApi } from '../../lib/api'
import { eventStore } from '../../stores/event'
import { orderStore } from '../../stores/order'
import { type LocalCard, localConfirmation } from '../../ui/local-card'

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

/** api-v1: the local provider's test-card confirmation. Throws ApiError (402 declined...). */
export async function confirmLocalCard(card: LocalCard): Promise<void> {
  if (!orderStore.payment) throw new Error('no setup intent')
  const answer = await callApi(order.localConfirm, {
    body: localConfirmation(orderStore.payment.clientSecret, card),
  })
  orderStore.card = answer.card
}
