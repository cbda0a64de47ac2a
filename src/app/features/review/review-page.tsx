import { Plural, Trans, useLingui } from '@lingui/react/macro'
import { Link, useNavigate, useParams } from '@tanstack/react-router'
import { type ReactNode, useEffect } from 'react'
import { useSnapshot } from 'valtio'
import { type ShopPage, shopPagePath } from '../../../contract/pages'
import { formatMoney } from '../../../domain/money'
import { missingAgreements, type RequiredAgreement } from '../../../domain/order-rules'
import { cityStateLabel, shoutTimesLabel } from '../../../domain/shout-times'
import { pwaStore } from '../../lib/pwa'
import { eventStore } from '../../stores/event'
import { orderStore } from '../../stores/order'
import { currentOrderPrice } from '../../stores/order-price'
import { sendOrder } from '../../stores/order-sending'
import { templatesStore } from '../../stores/templates'
import { ActionBar } from '../../ui/action-bar'
import { Button } from '../../ui/button'
import { Checkbox } from '../../ui/checkbox'
import { FocusedAlert } from '../../ui/focused-alert'
import { GeneratedContentView } from '../../ui/generated-content'
import { PriceTotals } from '../../ui/price-totals'
import { ProblemList } from '../../ui/problem-list'
import { StepHeader } from '../../ui/step-header'

// Where a refusal is shown: beside the section it is about (the times, the card and contact), else
// above the button that placed the order.
const TIMES_PROBLEMS = new Set([
  'slots_taken',
  'slot_not_in_event',
  'slot_past_cutoff',
  'sold_out',
  'not_available_for_event',
])
const BILLING_PROBLEMS = new Set([
  'card_declined',
  'insufficient_funds',
  'expired_card',
  'incorrect_cvc',
  'incorrect_number',
  'processing_error',
  'authentication_required',
  'authentication_failed',
  'authentication_timed_out',
  'checkout_mismatch',
  'setup_not_confirmed',
  'payment_already_saved',
  'email_invalid',
  'phone_invalid',
  'phone_invalid_for_country',
  'first_name_empty',
  'last_name_empty',
  'promo_invalid',
  'promo_wrong_event',
  'promo_once_per_customer',
])
type ProblemPlace = 'times' | 'billing' | 'order'
const placeOf = (code: string): ProblemPlace =>
  TIMES_PROBLEMS.has(code) ? 'times' : BILLING_PROBLEMS.has(code) ? 'billing' : 'order'

export function ReviewPage() {
  const { t, i18n } = useLingui()
  const navigate = useNavigate()
  const { eventslug } = useParams({ from: '/_default/$eventslug' })
  const order = useSnapshot(orderStore)
  const { generatedContent } = useSnapshot(templatesStore)
  const { event } = useSnapshot(eventStore)
  void order.orderPromo
  const price = currentOrderPrice()
  const money = (cents: number) =>
    formatMoney(cents, { currency: event?.currency ?? 'USD', locale: i18n.locale })
  const device = order.activeDevice
  const times =
    event && device
      ? shoutTimesLabel(
          event,
          device.timeZoneId,
          order.shoutTimes.map((s) => s.slotNumber),
          i18n.locale,
        )
      : []
  const missing = missingAgreements(order.agreements)
  const sending = order.sendOrderStatus === 'Running'
  const { online } = useSnapshot(pwaStore)
  const placed =
    order.orderGuid !== null && order.orderStatus !== null && order.orderStatus !== 'Failed'

  useEffect(() => {
    if (placed && !sending) {
      void navigate({ to: '/$eventslug/order/confirmation', params: { eventslug }, replace: true })
    }
  }, [placed, sending, navigate, eventslug])

  const agree = (key: RequiredAgreement | 'userGeneratedContentPolicy', value: boolean) => {
    orderStore.agreements[key] = value
  }

  const startOver = () => {
    // a failed order needs a new card confirmation (the checkout secret key is single use)
    orderStore.orderGuid = null
    orderStore.orderStatus = null
    orderStore.confirmationCode = null
    orderStore.payment = null
    orderStore.formSubmitted = false
    orderStore.card = null
    void navigate({ to: '/$eventslug/order/checkout', params: { eventslug } })
  }

  // each consent opens the text it accepts, in a new tab: the order waits here (docs/pages.md);
  // safety and no changes after ordering are clauses of the terms
  const pageLink = (page: ShopPage) => ({
    href: shopPagePath(page, i18n.locale),
    target: '_blank',
    rel: 'noopener',
  })

  // times taken meanwhile: the way back is to the times
  const slotsTaken = order.orderProblems.some((p) => p.code === 'slots_taken')
  const problemsAt = (place: ProblemPlace) =>
    order.orderProblems.filter((p) => placeOf(p.code) === place)
  const refusal = (place: ProblemPlace, action: ReactNode) => {
    const problems = problemsAt(place)
    if (problems.length === 0) return null
    return (
      <FocusedAlert className="notice notice--error" focusKey={order.orderProblems.length}>
        <ProblemList problems={problems} />
        {action}
      </FocusedAlert>
    )
  }
  const backToBilling =
    order.orderStatus === 'Failed' && order.orderGuid ? (
      <Button kind="link" size="small" onClick={startOver}>
        <Trans>Back to billing info</Trans>
      </Button>
    ) : null

  const agreement = (key: RequiredAgreement, label: ReactNode) => (
    <Checkbox
      checked={order.agreements[key]}
      onChange={(e) => agree(key, e.target.checked)}
      required
      aria-required="true"
    >
      {label}
    </Checkbox>
  )

  return (
    <main className="page page--flow page--narrow" id="main">
      <StepHeader step="review" title={<Trans>Order Review</Trans>} />

      <section className="card" aria-labelledby="content-heading">
        <h2 id="content-heading" className="section-title">
          <Trans>Your design</Trans>
        </h2>
        {generatedContent ? <GeneratedContentView content={generatedContent} /> : null}
        <Link to="/$eventslug/design/customize" params={{ eventslug }} className="link">
          <Trans>Edit design</Trans>
        </Link>
      </section>

      <section className="card" aria-labelledby="billboard-heading">
        <h2 id="billboard-heading" className="section-title">
          <Trans>Billboard</Trans>
        </h2>
        {device ? (
          <>
            <p className="strong">{device.location}</p>
            <p className="muted">{cityStateLabel(device, i18n.locale)}</p>
          </>
        ) : null}
      </section>

      <section className="card" aria-labelledby="times-heading">
        <h2 id="times-heading" className="section-title">
          <Trans>Shout times</Trans>
        </h2>
        <ul className="times">
          {times.map((label) => (
            <li key={label}>{label}</li>
          ))}
        </ul>
        {refusal(
          'times',
          slotsTaken ? (
            <Link to="/$eventslug/order/select-shouts" params={{ eventslug }} className="link">
              <Trans>Choose other times</Trans>
            </Link>
          ) : null,
        )}
        <Link to="/$eventslug/order/select-shouts" params={{ eventslug }} className="link">
          <Trans>Change times</Trans>
        </Link>
      </section>

      <section className="card" aria-labelledby="contact-heading">
        <h2 id="contact-heading" className="section-title">
          <Trans>Contact</Trans>
        </h2>
        <p>
          {order.contactInfo.firstName} {order.contactInfo.lastName}
        </p>
        <p className="muted">
          {order.contactInfo.email} · {order.contactInfo.phone}
        </p>
        {refusal('billing', backToBilling)}
        {problemsAt('billing').length > 0 && backToBilling ? null : (
          <Link to="/$eventslug/order/checkout" params={{ eventslug }} className="link">
            <Trans>Edit billing info</Trans>
          </Link>
        )}
      </section>

      <section className="card" aria-labelledby="totals-heading">
        <h2 id="totals-heading" className="section-title">
          <Trans>Price</Trans>
        </h2>
        <PriceTotals price={price} money={money} promoCode={order.orderPromo?.promoCode} />
      </section>

      <section className="card" aria-labelledby="agreements-heading">
        <h2 id="agreements-heading" className="section-title">
          <Trans>Before you place your order</Trans>
        </h2>
        {agreement(
          'safetyWarning',
          <Trans>
            I will not look at or film the billboard while driving, and I will{' '}
            <a {...pageLink('terms')}>stay safe</a> when I go to see it.
          </Trans>,
        )}
        {agreement(
          'terms',
          <Trans>
            I accept the <a {...pageLink('terms')}>terms and conditions</a>.
          </Trans>,
        )}
        {agreement(
          'noChanges',
          <Trans>
            I understand that my content and times{' '}
            <a {...pageLink('terms')}>cannot be changed once the order is placed</a>.
          </Trans>,
        )}
        {agreement(
          'privacyPolicy',
          <Trans>
            I have read the <a {...pageLink('privacy-policy')}>privacy policy</a>.
          </Trans>,
        )}
        <Checkbox
          checked={order.agreements.userGeneratedContentPolicy}
          onChange={(e) => agree('userGeneratedContentPolicy', e.target.checked)}
        >
          <Trans>
            I confirm my photo and message follow the{' '}
            <a {...pageLink('content-policy')}>user-generated content policy</a>.
          </Trans>{' '}
          <span className="check__optional">{t`(optional)`}</span>
        </Checkbox>
      </section>

      {refusal('order', backToBilling)}

      <ActionBar>
        <p className="action-bar__info">
          {!online && !sending ? (
            <Trans>You are offline: placing the order needs a connection</Trans>
          ) : missing.length > 0 ? (
            <Plural
              value={missing.length}
              one="Tick the # required box left to place your order"
              other="Tick the # required boxes left to place your order"
            />
          ) : (
            <>
              <Trans>Total</Trans> <strong>{money(price.totalCents)}</strong>
            </>
          )}
        </p>
        <Button
          kind={sending ? 'loading' : missing.length > 0 || !online ? 'disabled' : 'orange'}
          size="large"
          loadingLabel={t`Placing your order`}
          onClick={() => void sendOrder()}
        >
          <Trans>Place order</Trans>
        </Button>
      </ActionBar>
      <p className="visually-hidden" aria-live="polite">
        {sending ? t`Placing your order…` : ''}
      </p>
    </main>
  )
}
