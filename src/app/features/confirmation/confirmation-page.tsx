import { Trans, useLingui } from '@lingui/react/macro'
import { useLocation, useNavigate, useParams } from '@tanstack/react-router'
import { lazy, Suspense, useCallback, useEffect, useState } from 'react'
import { useSnapshot } from 'valtio'
import { problemsOf } from '../../../contract/common'
import { type OrderStatus, type OrderSummary, order as orderApi } from '../../../contract/order'
import type { EventTiming } from '../../../domain/event'
import { formatMoney } from '../../../domain/money'
import type { ProblemData } from '../../../domain/problems'
import { type SlotAiring, slotAiring } from '../../../domain/schedule'
import { cityStateLabel, shoutTimesLabel } from '../../../domain/shout-times'
import { slotLabel } from '../../../domain/slots'
import { callApi } from '../../lib/api'
import { eventStore } from '../../stores/event'
import { orderStore, resetOrder } from '../../stores/order'
import { pollOrderStatus } from '../../stores/order-sending'
import { resetTemplates, templatesStore } from '../../stores/templates'
import { Button } from '../../ui/button'
import { Notice } from '../../ui/notice'
import { Picture } from '../../ui/picture'
import { PriceTotals } from '../../ui/price-totals'
import { ProblemList } from '../../ui/problem-list'
import { Skeleton } from '../../ui/skeleton'
import { buildIcs } from './ics'
import { MakeGoodNotice } from './make-good-notice'

// "Tell me when it plays": the Push API's code in its own chunk, fetched only on this page (the
// worker precaches it: it loads offline too)
const PlayAlerts = lazy(() => import('../../lib/play-alerts-card'))
// Confirming the charge with the shopper's bank (3-D Secure; Stripe.js or the local test screen):
// loaded only while an order waits for it
const PaymentAuthentication = lazy(() => import('../../lib/payment-authentication'))
// "Share my shout": the order's keepsake page (api-v1 "Keepsake pages"), in its own chunk too
const KeepsakeShare = lazy(() => import('../../lib/keepsake-share'))

/** How often an open confirmation page asks for its order's plays. */
const SUMMARY_REFRESH_MS = 5_000

export function ConfirmationPage() {
  const { t, i18n } = useLingui()
  const navigate = useNavigate()
  const { eventslug } = useParams({ from: '/_default/$eventslug' })
  const order = useSnapshot(orderStore)
  const { event } = useSnapshot(eventStore)
  const templates = useSnapshot(templatesStore)
  // The e-mails link here with ?order=GUID, which also opens on another device (or after
  // another order): the page then shows that order from the server's summary, not this browser's
  // saved order
  const search = useLocation({ select: (l) => l.search }) as Record<string, unknown>
  const linked =
    typeof search.order === 'string' && search.order !== order.orderGuid ? search.order : null
  const own = linked === null
  const guid = linked ?? order.orderGuid
  const generatedContent = own ? templates.generatedContent : null
  const [summary, setSummary] = useState<OrderSummary | null>(null)
  const onAuthentication = useCallback(
    (status: OrderStatus) => {
      if (status.orderState === 'AwaitingAuthentication') return
      if (own && orderStore.orderGuid === guid) {
        orderStore.orderStatus = status.orderState
        orderStore.confirmationDateEpochMs = status.confirmationDateEpochMs
        if (status.orderState === 'Failed') orderStore.orderProblems = problemsOf(status)
      }
      // its summary again, at once
      if (guid) {
        callApi(orderApi.summary, { params: { eventSlug: eventslug, guid } })
          .then(setSummary)
          .catch(() => undefined)
      }
    },
    [own, guid, eventslug],
  )

  // an order still Processing (the page was reloaded while it was checked) is checked again
  useEffect(() => {
    if (
      own &&
      order.orderGuid &&
      order.orderStatus === 'Processing' &&
      order.sendOrderStatus !== 'Running'
    ) {
      void pollOrderStatus(eventslug, order.orderGuid)
    }
  }, [own, order.orderGuid, order.orderStatus, order.sendOrderStatus, eventslug])

  useEffect(() => {
    if (!guid || (own && order.orderStatus === 'Processing')) return
    // While the page is open the summary is asked again every few seconds, so the slots'
    // "On air now" and "Played 3 of 4 times" follow the billboard; quiet while the page is hidden.
    let timer: ReturnType<typeof setTimeout> | undefined
    let live = true
    const load = () => {
      clearTimeout(timer)
      if (document.visibilityState === 'hidden') return
      let settled = false
      callApi(orderApi.summary, { params: { eventSlug: eventslug, guid } })
        .then((s) => {
          // A Cancelled (or Failed) order changes no more: the checks stop
          settled = s.orderState === 'Cancelled' || s.orderState === 'Failed'
          if (live) setSummary(s)
        })
        .catch(() => undefined) // offline: the last summary stays
        .finally(() => {
          if (live && !settled) timer = setTimeout(load, SUMMARY_REFRESH_MS)
        })
    }
    load()
    document.addEventListener('visibilitychange', load)
    return () => {
      live = false
      clearTimeout(timer)
      document.removeEventListener('visibilitychange', load)
    }
  }, [guid, own, order.orderStatus, eventslug])

  const startAnother = () => {
    resetOrder()
    resetTemplates()
    orderStore.eventSlug = eventslug
    void navigate({ to: '/$eventslug/design/location', params: { eventslug } })
  }

  if (!guid) {
    return (
      <main className="page page--center" id="main">
        <h1>
          <Trans>No order to show</Trans>
        </h1>
        <Button kind="orange" onClick={startAnother}>
          <Trans>Start a shout</Trans>
        </Button>
      </main>
    )
  }

  if (!own && !summary) {
    // the linked order's summary is on its way
    return (
      <main className="page page--flow page--narrow" id="main">
        <Skeleton height={80} count={2} />
      </main>
    )
  }

  const state = summary?.orderState ?? order.orderStatus
  const confirmationCode = summary?.confirmationCode ?? order.confirmationCode
  // the page's own order says why it failed; one that failed while the page waited (the bank's
  // check ran out of time) says it in its summary
  const problems =
    own && order.orderProblems.length > 0 ? order.orderProblems : summary ? problemsOf(summary) : []
  const timeZoneId = summary?.device.timeZoneId ?? order.activeDevice?.timeZoneId ?? 'UTC'
  const slotNumbers =
    summary?.slots.map((s) => s.slotNumber) ?? order.shoutTimes.map((s) => s.slotNumber)
  const times = event ? shoutTimesLabel(event, timeZoneId, slotNumbers, i18n.locale) : []
  const confirmationDate = summary?.confirmationDateEpochMs ?? order.confirmationDateEpochMs
  const dateText = confirmationDate
    ? new Intl.DateTimeFormat(i18n.locale, { dateStyle: 'long', timeZone: timeZoneId }).format(
        confirmationDate,
      )
    : null
  const money = (cents: number) =>
    formatMoney(cents, {
      currency: summary?.currency ?? event?.currency ?? 'USD',
      locale: i18n.locale,
    })
  const contentUrl = generatedContent?.url ?? summary?.contentUrl ?? null
  const location = summary?.device.location ?? order.activeDevice?.location ?? ''

  const calendar = () => {
    if (!summary) return
    const ics = buildIcs({
      code: summary.confirmationCode,
      title: t`My shout on the billboard`,
      location: `${location}, ${cityStateLabel(summary.device)}`,
      description: t`Confirmation code ${summary.confirmationCode}`,
      entries: summary.slots,
      nowEpochMs: Date.now(),
    })
    const url = URL.createObjectURL(new Blob([ics], { type: 'text/calendar' }))
    const a = document.createElement('a')
    a.href = url
    a.download = `shout-${summary.confirmationCode}.ics`
    a.click()
    setTimeout(() => URL.revokeObjectURL(url), 1000)
  }

  return (
    <main className="page page--flow page--narrow" id="main">
      <div className="confirm__hero">
        <svg
          className="confirm__icon"
          viewBox="0 0 64 64"
          width="64"
          height="64"
          aria-hidden="true"
        >
          <circle cx="32" cy="32" r="30" fill="#1e7b45" />
          <path
            d="M18 33l9 9 19-20"
            fill="none"
            stroke="#fff"
            strokeWidth="6"
            strokeLinecap="round"
            strokeLinejoin="round"
          />
        </svg>
        <h1 className="page__title">
          {state === 'Processing' ? (
            <Trans>Placing your order…</Trans>
          ) : state === 'AwaitingAuthentication' ? (
            <Trans>One more step: your bank</Trans>
          ) : state === 'Failed' ? (
            <Trans>Your order could not be completed</Trans>
          ) : state === 'Cancelled' ? (
            <Trans>Your order was cancelled</Trans>
          ) : (
            <Trans>Thank you! Your shout is booked</Trans>
          )}
        </h1>
        <p className="confirm__code">
          <Trans>Confirmation code</Trans> <strong>{confirmationCode}</strong>
        </p>
      </div>

      {state === 'Processing' ? <Skeleton height={80} count={1} /> : null}
      {state === 'AwaitingAuthentication' ? (
        <Suspense fallback={<Skeleton height={80} count={1} />}>
          <PaymentAuthentication eventSlug={eventslug} guid={guid} onStatus={onAuthentication} />
        </Suspense>
      ) : null}
      {state === 'Confirmed' ? (
        <Notice tone="success">
          <Trans>Your order is confirmed.</Trans>
        </Notice>
      ) : null}
      {state === 'UnderReview' ? (
        <Notice>
          {dateText ? (
            <Trans>Your order is under review. It will be confirmed by {dateText}.</Trans>
          ) : (
            <Trans>Your order is under review. We will confirm it by email.</Trans>
          )}
        </Notice>
      ) : null}
      {state === 'Failed' ? (
        <Notice tone="error">
          <ProblemList problems={problems} />
        </Notice>
      ) : null}

      {state === 'Cancelled' ? (
        <CancelledNotice
          reasons={summary ? problemsOf(summary) : problems}
          paid={summary && summary.totalCents > 0 ? money(summary.totalCents) : null}
        />
      ) : null}

      {contentUrl ? (
        <Picture
          className="generated"
          src={contentUrl}
          alt={t`Your design as it will show on the billboard`}
          width={generatedContent?.widthPx}
          height={generatedContent?.heightPx}
        />
      ) : null}

      <section className="card" aria-labelledby="times-heading">
        <h2 id="times-heading" className="section-title">
          <Trans>Shout times</Trans>
        </h2>
        <p className="muted">{location}</p>
        <ul className="times">
          {times.map((label) => (
            <li key={label}>{label}</li>
          ))}
        </ul>
        {summary && event && state === 'Confirmed' ? (
          <Airing summary={summary} event={event} now={Date.now()} />
        ) : null}
        {summary && event ? <MakeGoodNotice summary={summary} event={event} money={money} /> : null}
        {/* spec §3 Order (UI): subtotal, discount with its code, and total, as on review; the
            server's figures once its summary is here */}
        {summary ? (
          <PriceTotals price={summary} money={money} promoCode={summary.promoCode} />
        ) : null}
      </section>

      {state === 'Confirmed' || state === 'UnderReview' ? (
        <Suspense fallback={null}>
          <PlayAlerts eventSlug={eventslug} guid={guid} />
        </Suspense>
      ) : null}

      <div className="button-stack">
        {state === 'Confirmed' ? (
          <Suspense fallback={null}>
            <KeepsakeShare eventSlug={eventslug} guid={guid} />
          </Suspense>
        ) : null}
        <Button kind="white" size="large" icon="download" onClick={calendar} disabled={!summary}>
          <Trans>Add to calendar</Trans>
        </Button>
        <Button kind="black" size="large" onClick={startAnother}>
          <Trans>Start another shout</Trans>
        </Button>
      </div>
    </main>
  )
}

/** Each slot's playout as the billboard proved it ("On air now", "Played 3 of 4 times"). */
function Airing({
  summary,
  event,
  now,
}: {
  summary: OrderSummary
  event: EventTiming
  now: number
}) {
  const { i18n } = useLingui()
  const tz = summary.device.timeZoneId
  const time = new Intl.DateTimeFormat(i18n.locale, { timeStyle: 'short', timeZone: tz })
  const rows = summary.slots
    .map((slot) => ({
      slot,
      airing: slotAiring(
        slot,
        summary.plays.filter((p) => p.slotNumber === slot.slotNumber),
        summary.playsPerSlot,
        now,
      ),
    }))
    .filter(
      (row): row is { slot: typeof row.slot; airing: Exclude<SlotAiring, { kind: 'upcoming' }> } =>
        row.airing.kind !== 'upcoming',
    )
  if (rows.length === 0) return null
  return (
    <ul className="airing" aria-live="polite">
      {rows.map(({ slot, airing }) => {
        const label = slotLabel(event, tz, slot.slotNumber, i18n.locale)
        const total = summary.playsPerSlot
        if (airing.kind === 'on-air')
          return (
            <li key={slot.slotNumber}>
              {label}:{' '}
              <strong>
                <Trans>On air now</Trans>
              </strong>
            </li>
          )
        const played = airing.played
        const first = airing.firstAtEpochMs === null ? null : time.format(airing.firstAtEpochMs)
        return (
          <li key={slot.slotNumber}>
            {label}:{' '}
            {first ? (
              <Trans>
                Played {played} of {total} times · first at {first}
              </Trans>
            ) : (
              <Trans>
                Played {played} of {total} times
              </Trans>
            )}
          </li>
        )
      })}
    </ul>
  )
}

/** An operator refused or cancelled the order (or its review outlived its first slot). */
function CancelledNotice({
  reasons,
  paid,
}: {
  reasons: readonly ProblemData[]
  paid: string | null
}) {
  return (
    <Notice tone="error">
      <p>
        {paid ? (
          <Trans>Your order was cancelled and your payment of {paid} refunded.</Trans>
        ) : (
          <Trans>Your order was cancelled.</Trans>
        )}
      </p>
      {reasons.length > 0 ? (
        <>
          <p>
            <Trans>Why:</Trans>
          </p>
          <ProblemList problems={reasons} />
        </>
      ) : null}
    </Notice>
  )
}
