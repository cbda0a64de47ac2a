import { Trans, useLingui } from '@lingui/react/macro'
import { useEffect, useState } from 'react'
import { type OrderStatus, order as orderApi, type PaymentAction } from '../../contract/order'
import { formatMoney } from '../../domain/money'
import { Button } from '../ui/button'
import { Modal } from '../ui/modal'
import { Notice } from '../ui/notice'
import { callApi } from './api'
import { loadStripeFor } from './stripe'

// The order waits for the shopper to confirm its charge with their bank (3-D Secure): Stripe.js's
// handleNextAction with the PaymentIntent's client secret, or the local provider's test screen
// (Complete / Fail, as Stripe's test page). Then the server settles the order by the charge itself.
// Its own chunk, loaded by the confirmation page only while an order waits.

type Props = {
  eventSlug: string
  guid: string
  /** The order's status once the server settled it (or still waiting). */
  onStatus: (status: OrderStatus) => void
}

type Step = 'ready' | 'busy' | 'test-screen' | 'not-confirmed' | 'unavailable'

export default function PaymentAuthentication({ eventSlug, guid, onStatus }: Props) {
  const { t, i18n } = useLingui()
  const [action, setAction] = useState<PaymentAction | null>(null)
  const [step, setStep] = useState<Step>('ready')

  useEffect(() => {
    let live = true
    callApi(orderApi.status, { params: { eventSlug, guid } })
      .then((status) => {
        if (!live) return
        if (status.orderState !== 'AwaitingAuthentication') onStatus(status)
        else setAction(status.paymentAction ?? null)
      })
      .catch(() => live && setStep('unavailable'))
    return () => {
      live = false
    }
  }, [eventSlug, guid, onStatus])

  /** The server settles the order by the charge (never by what this page says). */
  const settle = async () => {
    try {
      const status = await callApi(orderApi.authenticated, { params: { eventSlug, guid } })
      onStatus(status)
      setStep(status.orderState === 'AwaitingAuthentication' ? 'not-confirmed' : 'ready')
    } catch {
      setStep('unavailable')
    }
  }

  const confirm = async () => {
    if (!action) return
    if (action.provider === 'local') {
      setStep('test-screen')
      return
    }
    setStep('busy')
    const stripe = action.publishableKey ? await loadStripeFor(action.publishableKey) : null
    if (!stripe) {
      setStep('unavailable')
      return
    }
    // Its result is not trusted: the server asks Stripe where the charge stands
    await stripe.handleNextAction({ clientSecret: action.clientSecret }).catch(() => undefined)
    await settle()
  }

  const answerTest = async (outcome: 'complete' | 'fail') => {
    if (!action) return
    setStep('busy')
    try {
      await callApi(orderApi.localAuthenticate, {
        body: { clientSecret: action.clientSecret, outcome },
      })
    } catch {
      // answered already (or the wait ended): the order's status says how it ended
    }
    await settle()
  }

  if (!action) {
    return step === 'unavailable' ? (
      <Notice tone="error">
        <Trans>We could not reach the shop. Check your connection and reload the page.</Trans>
      </Notice>
    ) : null
  }
  const amount = formatMoney(action.amountCents, { currency: action.currency, locale: i18n.locale })
  const until = new Intl.DateTimeFormat(i18n.locale, { timeStyle: 'short' }).format(
    action.untilEpochMs,
  )

  return (
    <section className="card" aria-labelledby="bank-heading">
      <h2 id="bank-heading" className="section-title">
        <Trans>Confirm the payment with your bank</Trans>
      </h2>
      <p>
        <Trans>
          Your bank asks you to confirm the payment of {amount}. Your times are held for you until{' '}
          {until}; after that the order is cancelled and nothing is charged.
        </Trans>
      </p>
      {step === 'not-confirmed' ? (
        <Notice tone="error">
          <Trans>Your bank has not confirmed the payment yet. Try again.</Trans>
        </Notice>
      ) : null}
      {step === 'unavailable' ? (
        <Notice tone="error">
          <Trans>We could not reach your bank's check. Check your connection and try again.</Trans>
        </Notice>
      ) : null}
      <Button
        kind="orange"
        size="large"
        onClick={() => void confirm()}
        disabled={step === 'busy' || step === 'test-screen'}
      >
        <Trans>Confirm with my bank</Trans>
      </Button>
      <Modal
        title={t`Test authentication`}
        open={step === 'test-screen'}
        onClose={() => setStep('ready')}
        footer={
          <div className="button-stack">
            <Button kind="black" size="large" onClick={() => void answerTest('complete')}>
              <Trans>Complete</Trans>
            </Button>
            <Button kind="white" size="large" onClick={() => void answerTest('fail')}>
              <Trans>Fail</Trans>
            </Button>
          </div>
        }
      >
        <p>
          <Trans>
            This shop takes test cards only: no bank is asked and no money moves. Complete or fail
            the authentication of this payment of {amount}, as a bank would.
          </Trans>
        </p>
      </Modal>
    </section>
  )
}
