import { Trans, useLingui } from '@lingui/react/macro'
import { useNavigate, useParams } from '@tanstack/react-router'
import { type FormEvent, lazy, Suspense, useCallback, useEffect, useRef, useState } from 'react'
import type * as v from 'valibot'
import { useSnapshot } from 'valtio'
import { countryCodeOf } from '../../../domain/country'
import { formatMoney } from '../../../domain/money'
import { checkPhone, phoneExample } from '../../../domain/phone'
import type { ProblemData } from '../../../domain/problems'
import {
  type ContactInfo,
  EmailSchema,
  FirstNameSchema,
  fieldError,
  LastNameSchema,
  PhoneSchema,
} from '../../../domain/validation'
import { ApiError } from '../../lib/api'
import { problemText } from '../../lib/problem-text'
import type { CardConfirm } from '../../lib/stripe-card-form'
import { eventStore } from '../../stores/event'
import { orderStore } from '../../stores/order'
import { currentOrderPrice } from '../../stores/order-price'
import { lookupPromo } from '../../stores/promo'
import { ActionBar } from '../../ui/action-bar'
import { Button } from '../../ui/button'
import { Checkbox } from '../../ui/checkbox'
import { FocusedAlert } from '../../ui/focused-alert'
import { type LocalCard, LocalCardFields, NO_CARD } from '../../ui/local-card'
import { Notice } from '../../ui/notice'
import { FirstShoutFree, PriceTotals } from '../../ui/price-totals'
import { StepHeader } from '../../ui/step-header'
import { TextField } from '../../ui/text-field'
import { confirmLocalCard, ensureSetupIntent, fetchOrderDefaults } from './checkout-actions'

// Stripe Elements load only when the server's provider is stripe (first screen stays light).
const StripeCardForm = lazy(() => import('../../lib/stripe-card-form'))

type Field = keyof ContactInfo
const SCHEMAS: Record<Field, v.GenericSchema> = {
  firstName: FirstNameSchema,
  lastName: LastNameSchema,
  email: EmailSchema,
  phone: PhoneSchema,
}

export function CheckoutPage() {
  const { t, i18n } = useLingui()
  const navigate = useNavigate()
  const { eventslug } = useParams({ from: '/_default/$eventslug' })
  const order = useSnapshot(orderStore)
  const { event } = useSnapshot(eventStore)
  const [errors, setErrors] = useState<Partial<Record<Field, ProblemData>>>({})
  const [promoInput, setPromoInput] = useState(order.orderPromo?.promoCode ?? '')
  const [promoProblem, setPromoProblem] = useState<ProblemData | null>(null)
  const [promoBusy, setPromoBusy] = useState(false)
  const [card, setCard] = useState<LocalCard>(NO_CARD)
  const [cardError, setCardError] = useState<string | null>(null)
  const [setupError, setSetupError] = useState(false)
  const [busy, setBusy] = useState(false)
  const stripeConfirm = useRef<CardConfirm | null>(null)
  const onStripeReady = useCallback((confirm: CardConfirm | null) => {
    stripeConfirm.current = confirm
  }, [])

  // a snapshot read keeps the price in step with the promo and the slots
  void order.orderPromo
  void order.shoutTimes.length
  const price = currentOrderPrice()
  const money = (cents: number) =>
    formatMoney(cents, { currency: event?.currency ?? 'USD', locale: i18n.locale })
  const needsCard = price.paymentRequired && !order.formSubmitted

  useEffect(() => {
    void fetchOrderDefaults()
    ensureSetupIntent().catch(() => setSetupError(true))
  }, [])

  // spec §5: the number is read in the billboard's country, as the server reads it (domain/phone.ts)
  const country = countryCodeOf(order.activeDevice?.country ?? '')
  const phoneHint = phoneExample(country)
  const validate = (field: Field, value: string) => {
    let problem = fieldError(SCHEMAS[field], value)
    if (!problem && field === 'phone') {
      const phone = checkPhone(value, country)
      problem = phone.ok ? null : phone.problem
    }
    setErrors((e) => ({ ...e, [field]: problem ?? undefined }))
    return problem === null
  }

  const setContact = (field: Field, value: string) => {
    orderStore.contactInfo[field] = value
    if (errors[field]) validate(field, value)
  }

  const applyPromo = async () => {
    const code = promoInput.trim()
    if (!code || !event) return
    setPromoBusy(true)
    const result = await lookupPromo(code, event.slug)
    setPromoBusy(false)
    setPromoProblem(result.ok ? null : result.problem)
    // the refusal is beside the field: the field takes the focus (its message is read with it)
    if (!result.ok) {
      requestAnimationFrame(() => {
        const field = document.getElementById('promo-code')
        field?.scrollIntoView({ block: 'center' })
        field?.focus({ preventScroll: true })
      })
    }
  }

  const removePromo = () => {
    orderStore.orderPromo = null
    orderStore.orderPromoError = null
    setPromoInput('')
    setPromoProblem(null)
  }

  const submit = async (e: FormEvent) => {
    e.preventDefault()
    const valid = (Object.keys(SCHEMAS) as Field[])
      .map((f) => validate(f, orderStore.contactInfo[f]))
      .every(Boolean)
    if (!valid) {
      // after the render that marks the fields: the first one refused, in the middle of the screen
      requestAnimationFrame(() => {
        const field = document.querySelector<HTMLElement>('[aria-invalid="true"]')
        field?.scrollIntoView({ block: 'center' })
        field?.focus({ preventScroll: true })
      })
      return
    }
    setBusy(true)
    setCardError(null)
    try {
      await ensureSetupIntent()
      if (needsCard) {
        if (orderStore.payment?.provider === 'stripe') {
          const confirm = stripeConfirm.current
          if (!confirm) throw new Error('card form not ready')
          const result = await confirm()
          if (!result.ok) {
            setCardError(result.message)
            return
          }
        } else {
          await confirmLocalCard(card)
        }
        orderStore.formSubmitted = true
      }
      void navigate({ to: '/$eventslug/order/review', params: { eventslug } })
    } catch (error) {
      const problem = (error instanceof ApiError && error.problems[0]) || { code: 'unknown_error' }
      setCardError(
        problemText(i18n, problem, error instanceof ApiError ? error.errors[0] : undefined),
      )
    } finally {
      setBusy(false)
    }
  }

  const fieldMessage = (f: Field) => {
    const problem = errors[f]
    return problem ? problemText(i18n, problem) : null
  }

  return (
    <main className="page page--flow" id="main">
      <StepHeader step="checkout" title={<Trans>Billing Info</Trans>} />
      <form onSubmit={(e) => void submit(e)} noValidate className="checkout">
        <section className="card" aria-labelledby="contact-heading">
          <h2 id="contact-heading" className="section-title">
            <Trans>Your contact details</Trans>
          </h2>
          <div className="field-pair">
            <TextField
              label={t`First name`}
              value={order.contactInfo.firstName}
              autoComplete="given-name"
              error={fieldMessage('firstName')}
              onChange={(e) => setContact('firstName', e.target.value)}
              onBlur={(e) => validate('firstName', e.target.value)}
            />
            <TextField
              label={t`Last name`}
              value={order.contactInfo.lastName}
              autoComplete="family-name"
              error={fieldMessage('lastName')}
              onChange={(e) => setContact('lastName', e.target.value)}
              onBlur={(e) => validate('lastName', e.target.value)}
            />
          </div>
          <TextField
            label={t`Email`}
            type="email"
            inputMode="email"
            value={order.contactInfo.email}
            autoComplete="email"
            error={fieldMessage('email')}
            onChange={(e) => setContact('email', e.target.value)}
            onBlur={(e) => validate('email', e.target.value)}
          />
          <TextField
            label={t`Phone`}
            type="tel"
            inputMode="tel"
            value={order.contactInfo.phone}
            autoComplete="tel"
            hint={t`For example ${phoneHint}, or an international number starting with +`}
            error={fieldMessage('phone')}
            onChange={(e) => setContact('phone', e.target.value)}
            onBlur={(e) => validate('phone', e.target.value)}
          />
          <Checkbox
            checked={order.willReceiveMarketing}
            onChange={(e) => {
              orderStore.willReceiveMarketing = e.target.checked
            }}
          >
            <Trans>Send me occasional emails about new events and offers</Trans>
          </Checkbox>
          <Checkbox
            checked={order.willReceiveSms}
            onChange={(e) => {
              orderStore.willReceiveSms = e.target.checked
            }}
          >
            <Trans>Send me text messages (SMS) about my shouts</Trans>
          </Checkbox>
          {order.orderDefaults?.isShareInfoWithSponsorVisible ? (
            <Checkbox
              checked={order.shareInfoWithSponsor}
              onChange={(e) => {
                orderStore.shareInfoWithSponsor = e.target.checked
              }}
            >
              {t`Share my contact details with ${event?.sponsorName ?? t`the sponsoring brand`}`}
            </Checkbox>
          ) : null}
        </section>

        <section className="card" aria-labelledby="promo-heading">
          <h2 id="promo-heading" className="section-title">
            <Trans>Promo code</Trans>
          </h2>
          {order.orderPromo ? (
            <div className="promo-applied">
              <p role="status">
                {t`Promo code ${order.orderPromo.promoCode} applied: ${money(price.discountCents)} off`}
              </p>
              <Button kind="link" size="small" onClick={removePromo}>
                <Trans>Remove</Trans>
              </Button>
            </div>
          ) : (
            <div className="promo-row">
              <TextField
                id="promo-code"
                label={t`Promo code`}
                value={promoInput}
                autoCapitalize="characters"
                autoComplete="off"
                error={promoProblem ? problemText(i18n, promoProblem) : null}
                onChange={(e) => setPromoInput(e.target.value)}
              />
              <Button
                kind={promoBusy ? 'loading' : promoInput.trim() ? 'black' : 'disabled'}
                size="field"
                onClick={() => void applyPromo()}
              >
                <Trans>Apply</Trans>
              </Button>
            </div>
          )}
          {promoProblem?.code === 'promo_problem' ? (
            <p className="field__hint">
              <Trans>
                Please try entering it again at checkout, or contact support if the problem
                continues.
              </Trans>
            </p>
          ) : null}
        </section>

        <section className="card" aria-labelledby="payment-heading">
          <h2 id="payment-heading" className="section-title">
            <Trans>Payment</Trans>
          </h2>
          <PriceTotals price={price} money={money} promoCode={order.orderPromo?.promoCode} />
          {price.firstShoutFree && order.orderPromo ? (
            <FirstShoutFree promoCode={order.orderPromo.promoCode} />
          ) : null}
          {!price.paymentRequired ? (
            <Notice tone="success">
              <Trans>Your order is free: no card needed.</Trans>
            </Notice>
          ) : order.formSubmitted ? (
            <Notice>
              {problemText(i18n, { code: 'payment_already_saved' })}
              {order.card ? ` (${order.card.brand} •••• ${order.card.last4})` : ''}
            </Notice>
          ) : setupError ? (
            <Notice tone="error">
              <Trans>
                The payment form could not be prepared. Check your connection and reload the page.
              </Trans>
            </Notice>
          ) : !order.payment ? (
            <div className="skeleton" style={{ height: 160 }} />
          ) : order.payment.provider === 'stripe' && order.payment.publishableKey ? (
            <Suspense fallback={<div className="skeleton" style={{ height: 160 }} />}>
              <StripeCardForm
                publishableKey={order.payment.publishableKey}
                clientSecret={order.payment.clientSecret}
                onReady={onStripeReady}
              />
            </Suspense>
          ) : (
            <LocalCardFields card={card} onChange={setCard} />
          )}
          {cardError ? (
            <FocusedAlert className="field__error focused-alert">{cardError}</FocusedAlert>
          ) : null}
        </section>

        <ActionBar>
          <p className="action-bar__info">
            <Trans>Total</Trans> <strong>{money(price.totalCents)}</strong>
          </p>
          <Button kind={busy ? 'loading' : 'orange'} size="large" htmlType="submit">
            <Trans>Review order</Trans>
          </Button>
        </ActionBar>
      </form>
    </main>
  )
}
