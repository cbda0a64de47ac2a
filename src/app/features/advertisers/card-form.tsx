import { Trans, useLingui } from '@lingui/react/macro'
import { lazy, Suspense, useCallback, useEffect, useRef, useState } from 'react'
import { order, type SetupIntentResponse } from '../../../contract/order'
import { callApi } from '../../lib/api'
import { problemText } from '../../lib/problem-text'
import type { CardConfirm } from '../../lib/stripe-card-form'
import { Notice } from '../../ui/notice'
import { TextField } from '../../ui/text-field'
import { problemsOfError } from './problems'

// The shop's payment flow, for a campaign's card: a SetupIntent, then Stripe's form when the server's
// provider is Stripe, else the local provider's test cards. Nothing is charged here: the card is saved
// for the plays shown later.
const StripeSetupForm = lazy(() => import('../../lib/stripe-card-form'))

export type SavedCard = { customerId: string; checkoutSecretKey: string }
/** Saves the card typed in the form; an error's text to show beside it when it cannot. */
export type SaveCard = () => Promise<{ ok: true; card: SavedCard } | { ok: false; message: string }>

export function CardForm({ onReady }: { onReady: (save: SaveCard | null) => void }) {
  const { t, i18n } = useLingui()
  const [setup, setSetup] = useState<SetupIntentResponse | null>(null)
  const [setupFailed, setSetupFailed] = useState(false)
  const [card, setCard] = useState({ number: '', expiry: '', cvc: '' })
  const stripeConfirm = useRef<CardConfirm | null>(null)
  const onStripeReady = useCallback((confirm: CardConfirm | null) => {
    stripeConfirm.current = confirm
  }, [])

  useEffect(() => {
    callApi(order.setupIntent, {})
      .then(setSetup)
      .catch(() => setSetupFailed(true))
  }, [])

  useEffect(() => {
    if (!setup) return onReady(null)
    const saved = { customerId: setup.customerId, checkoutSecretKey: setup.checkoutSecretKey }
    onReady(async () => {
      if (setup.provider === 'stripe') {
        const confirm = stripeConfirm.current
        if (!confirm) return { ok: false, message: t`Your card could not be saved.` }
        const result = await confirm()
        return result.ok ? { ok: true, card: saved } : result
      }
      const [month = '', year = ''] = card.expiry.split('/').map((part) => part.trim())
      try {
        await callApi(order.localConfirm, {
          body: {
            clientSecret: setup.clientSecret,
            cardNumber: card.number,
            expMonth: Number(month),
            expYear: year.length === 2 ? 2000 + Number(year) : Number(year),
            cvc: card.cvc.trim(),
          },
        })
        return { ok: true, card: saved }
      } catch (error) {
        return {
          ok: false,
          message: problemsOfError(error)
            .map((p) => problemText(i18n, p))
            .join(' '),
        }
      }
    })
  }, [setup, card, onReady, t, i18n])

  if (setupFailed) {
    return (
      <Notice tone="error">
        <Trans>
          The payment form could not be prepared. Check your connection and reload the page.
        </Trans>
      </Notice>
    )
  }
  if (!setup) return <div className="skeleton" style={{ height: 160 }} />
  if (setup.provider === 'stripe' && setup.publishableKey) {
    return (
      <Suspense fallback={<div className="skeleton" style={{ height: 160 }} />}>
        <StripeSetupForm
          publishableKey={setup.publishableKey}
          clientSecret={setup.clientSecret}
          onReady={onStripeReady}
        />
      </Suspense>
    )
  }
  return (
    <div className="card-form">
      <p className="field__hint">
        <Trans>Test mode: use the card 4242 4242 4242 4242, any future date and any CVC.</Trans>
      </p>
      <TextField
        label={t`Card number`}
        inputMode="numeric"
        autoComplete="cc-number"
        value={card.number}
        onChange={(e) => setCard({ ...card, number: e.target.value })}
      />
      <div className="field-pair">
        <TextField
          label={t`Expiry (MM/YY)`}
          inputMode="numeric"
          autoComplete="cc-exp"
          placeholder={t`MM/YY`}
          value={card.expiry}
          onChange={(e) => setCard({ ...card, expiry: e.target.value })}
        />
        <TextField
          label={t`CVC`}
          inputMode="numeric"
          autoComplete="cc-csc"
          value={card.cvc}
          onChange={(e) => setCard({ ...card, cvc: e.target.value })}
        />
      </div>
    </div>
  )
}
