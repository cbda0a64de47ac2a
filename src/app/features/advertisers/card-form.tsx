import { Trans, useLingui } from '@lingui/react/macro'
import { lazy, Suspense, useCallback, useEffect, useRef, useState } from 'react'
import { order, type SetupIntentResponse } from '../../../contract/order'
import { callApi } from '../../lib/api'
import { problemText } from '../../lib/problem-text'
import type { CardConfirm } from '../../lib/stripe-card-form'
import { LocalCardFields, localConfirmation, NO_CARD } from '../../ui/local-card'
import { Notice } from '../../ui/notice'
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
  const [card, setCard] = useState(NO_CARD)
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
      try {
        await callApi(order.localConfirm, { body: localConfirmation(setup.clientSecret, card) })
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
  return <LocalCardFields card={card} onChange={setCard} />
}
