import { splitLocalePath } from '../../domain/locale'

// When the shop may offer "a new version is ready — reload": at a moment a reload loses nothing.
// What a shopper types into the design and the order is saved as they type (stores/persist.ts, and
// the reload waits for the last save), so most pages are safe. Not where money moves: the shop's
// checkout (a card being typed is never saved) and review (the order being placed), the advertisers'
// pages with a card form (a proposal's acceptance, the account's card), and any page while an order
// is between Place order and its final state.

const PAYMENT_PAGE = /^\/([^/]+\/order\/(checkout|review)|proposal\/[^/]+|account)\/?$/

/** A page where the shopper pays, or types a card. */
export function isPaymentPage(pathname: string): boolean {
  return PAYMENT_PAGE.test(splitLocalePath(pathname).path)
}

/** An order between Place order and its final state must not be interrupted by a reload. */
export function orderInProgress(o: { sendOrderStatus: unknown; orderStatus: unknown }): boolean {
  return o.sendOrderStatus === 'Running' || o.orderStatus === 'Processing'
}

/** Whether the update prompt may show now, on this page, with this order. */
export function mayOfferUpdate(
  pathname: string,
  order: { sendOrderStatus: unknown; orderStatus: unknown },
): boolean {
  return !isPaymentPage(pathname) && !orderInProgress(order)
}
