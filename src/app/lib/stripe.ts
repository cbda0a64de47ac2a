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
