import { useLingui } from '@lingui/react/macro'
import { Elements, PaymentElement, useElements, useStripe } from '@stripe/react-stripe-js'
import type { Stripe } from '@stripe/stripe-js'
import { useEffect, useState } from 'react'
import type { Locale } from '../../domain/locale'
import { loadStripeFor, PAYMENT_ELEMENT } from './stripe'

export type CardConfirm = () => Promise<{ ok: true } | { ok: false; message: string }>

type Props = {
  publishableKey: string
  clientSecret: string
  onReady: (confirm: CardConfirm | null) => void
}

/** Stripe Elements for a SetupIntent (the shopper's card at checkout, an advertiser's for a campaign):
 * confirmed with redirect 'if_required'. */
export default function StripeCardForm({ publishableKey, clientSecret, onReady }: Props) {
  const { t, i18n } = useLingui()
  const [stripe, setStripe] = useState<Stripe | null | undefined>(undefined)
  useEffect(() => {
    let live = true
    void loadStripeFor(publishableKey).then((s) => {
      if (live) setStripe(s)
    })
    return () => {
      live = false
    }
  }, [publishableKey])

  if (stripe === undefined) return <div className="skeleton" style={{ height: 160 }} />
  if (stripe === null) {
    return (
      <p className="field__error" role="alert">
        {t`The card form could not be loaded. Check your connection and reload the page.`}
      </p>
    )
  }
  return (
    <Elements stripe={stripe} options={{ clientSecret, locale: i18n.locale as Locale }}>
      <Inner onReady={onReady} />
    </Elements>
  )
}

function Inner({ onReady }: { onReady: Props['onReady'] }) {
  const { t } = useLingui()
  const stripe = useStripe()
  const elements = useElements()
  useEffect(() => {
    if (!stripe || !elements) {
      onReady(null)
      return
    }
    onReady(async () => {
      const result = await stripe.confirmSetup({
        elements,
        redirect: 'if_required',
        confirmParams: { return_url: window.location.href },
      })
      if (result.error) {
        return { ok: false, message: result.error.message ?? t`Your card could not be saved.` }
      }
      return { ok: true }
    })
    return () => onReady(null)
  }, [stripe, elements, onReady, t])
  return <PaymentElement options={PAYMENT_ELEMENT} />
}
