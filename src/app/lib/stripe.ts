import type { Stripe } from '@stripe/stripe-js'

// Stripe.js is loaded only when the server's provider is stripe, and only on the checkout screen.
const cache = new Map<string, Promise<Stripe | null>>()

/** Stripe.js for a publishable key; null when it cannot load (offline: "Failed to load Stripe.js"). */
export function loadStripeFor(publishableKey: string): Promise<Stripe | null> {
  let pending = cache.get(publishableKey)
  if (!pending) {
    pending = import('@stripe/stripe-js')
      .then(({ loadStripe }) => loadStripe(publishableKey))
      .catch(() => {
        cache.delete(publishableKey)
        return null
      })
    cache.set(publishableKey, pending)
  }
  return pending
}

// The Payment Element of the card forms (setup mode): Apple Pay and Google Pay where the device and
// browser have them (Apple Pay also needs the shop's domain registered with Stripe), and Link; each
// saves a method the order's charge uses like a card. A co-badged card shows its networks for the
// holder to choose (Cartes Bancaires or the other), kept on the card for its charges.
export const PAYMENT_ELEMENT = {
  wallets: { applePay: 'auto', googlePay: 'auto', link: 'auto' },
} as const
