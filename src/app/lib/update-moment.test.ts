import { describe, expect, it } from 'vitest'
import { isPaymentPage, mayOfferUpdate } from './update-moment'

const calm = { sendOrderStatus: 'Idle', orderStatus: null }

describe('the update prompt waits for a moment that loses nothing', () => {
  it('is offered on the design steps, the shout times, the confirmation and the home page', () => {
    for (const path of [
      '/',
      '/share-the-love/design/location',
      '/fr/share-the-love/design/customize',
      '/de/share-the-love/order/select-shouts',
      '/share-the-love/order/confirmation',
      '/campaigns',
      '/advertise',
    ]) {
      expect(mayOfferUpdate(path, calm), path).toBe(true)
    }
  })

  it('is never offered while the shopper pays: checkout, review, a proposal, the card on the account', () => {
    for (const path of [
      '/share-the-love/order/checkout',
      '/fr/share-the-love/order/review',
      '/de/share-the-love/order/checkout/',
      '/proposal/7b0c',
      '/fr/account',
    ]) {
      expect(isPaymentPage(path), path).toBe(true)
      expect(mayOfferUpdate(path, calm), path).toBe(false)
    }
  })

  it('is never offered while an order is being placed or processed, whatever the page', () => {
    const path = '/share-the-love/order/confirmation'
    expect(mayOfferUpdate(path, { sendOrderStatus: 'Running', orderStatus: null })).toBe(false)
    expect(mayOfferUpdate(path, { sendOrderStatus: 'Idle', orderStatus: 'Processing' })).toBe(false)
  })
})
