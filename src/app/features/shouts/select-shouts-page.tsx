import type { MessageDescriptor } from '@lingui/core'
import { msg } from '@lingui/core/macro'
import { Plural, Trans, useLingui } from '@lingui/react/macro'
import { useNavigate, useParams } from '@tanstack/react-router'
import { useEffect, useMemo, useRef, useState } from 'react'
import { useSnapshot } from 'valtio'
import {
  CONFIRMATION_DAYS_BEFORE,
  confirmationFor,
  instantConfirmationDays,
} from '../../../domain/confirmation'
import { eventDates } from '../../../domain/event'
import { formatMoney } from '../../../domain/money'
import { deselectSlot, isSlotSelected, selectSlot } from '../../../domain/order-rules'
import {
  meetsRecommendedMinimum,
  slotLabel,
  slotsOfDay,
  slotZoneNote,
  TIME_OF_DAY_BANDS,
  type TimeOfDayBand,
  timeOfDayBand,
} from '../../../domain/slots'
import { displayDateTime } from '../../lib/display-date'
import { devicesStore } from '../../stores/devices'
import { eventStore } from '../../stores/event'
import { orderStore } from '../../stores/order'
import { currentOrderPrice, valueCentsPerSlot } from '../../stores/order-price'
import { toggleModal } from '../../stores/ui'
import { ActionBar } from '../../ui/action-bar'
import { Button } from '../../ui/button'
import { Notice } from '../../ui/notice'
import { FirstShoutFree } from '../../ui/price-totals'
import { Skeleton } from '../../ui/skeleton'
import { StepHeader } from '../../ui/step-header'
import { fetchOpenSlots } from './shouts-actions'

// spec §3: the time-of-day bands, labelled in the shopper's language.
const BAND_LABELS: Record<TimeOfDayBand, MessageDescriptor> = {
  EarlyMorning: msg`Early Morning`,
  Morning: msg`Morning`,
  Afternoon: msg`Afternoon`,
  Evening: msg`Evening`,
}

export function SelectShoutsPage() {
  const { t, i18n } = useLingui()
  const navigate = useNavigate()
  const { eventslug } = useParams({ from: '/_default/$eventslug' })
  const order = useSnapshot(orderStore)
  const devices = useSnapshot(devicesStore)
  const { event } = useSnapshot(eventStore)
  const device = order.activeDevice
  const [dropped, setDropped] = useState(0)
  const [dayIndex, setDayIndex] = useState<number | null>(null)

  useEffect(() => {
    void fetchOpenSlots().then(setDropped)
  }, [])

  const slots = devices.slotsDeviceId === device?.deviceId ? devices.slots : null
  const tz = slots?.timeZoneId ?? device?.timeZoneId ?? 'UTC'
  const open = useMemo(() => new Set(slots?.openSlots ?? []), [slots])

  const days = useMemo(() => {
    if (!event || !slots) return []
    return eventDates(event, tz).map((date) => {
      const numbers = slotsOfDay(event, tz, date).filter((n) => open.has(n))
      return { date, numbers }
    })
  }, [event, slots, tz, open])

  // A shopper coming back (a reload, the app reopened) sees the day of the times they already chose,
  // not the first open day with none of them on it.
  const firstChosenDay = days.findIndex((d) =>
    d.numbers.some((n) => isSlotSelected(order.shoutTimes, n)),
  )
  const firstOpenDay = days.findIndex((d) => d.numbers.length > 0)
  const shownDay = dayIndex ?? (firstChosenDay >= 0 ? firstChosenDay : Math.max(0, firstOpenDay))
  const currentDay = days[shownDay]

  // The shown day in view in its strip (on a phone the strip scrolls sideways, and a shopper coming
  // back may be on a day far along it), without moving the page.
  const daysStrip = useRef<HTMLDivElement>(null)
  useEffect(() => {
    const strip = daysStrip.current
    const pressed = strip?.children.item(shownDay)
    if (!strip || !(pressed instanceof HTMLElement) || days.length === 0) return
    const left = pressed.getBoundingClientRect().left - strip.getBoundingClientRect().left
    if (left < 0 || left + pressed.offsetWidth > strip.clientWidth) {
      strip.scrollLeft += left - (strip.clientWidth - pressed.offsetWidth) / 2
    }
  }, [shownDay, days.length])
  const price = currentOrderPrice(order.shoutTimes.length)
  const currency = event?.currency ?? 'USD'
  const money = (cents: number) => formatMoney(cents, { currency, locale: i18n.locale })

  const zoneName =
    new Intl.DateTimeFormat(i18n.locale, { timeZone: tz, timeZoneName: 'long' })
      .formatToParts(Date.now())
      .find((p) => p.type === 'timeZoneName')?.value ?? tz
  const dayFormat = new Intl.DateTimeFormat(i18n.locale, {
    weekday: 'short',
    month: 'short',
    day: 'numeric',
    timeZone: 'UTC',
  })
  const dayName = (d: { year: number; month: number; day: number }) =>
    dayFormat.format(Date.UTC(d.year, d.month - 1, d.day, 12))

  // spec §9: slots in the presale window are confirmed a few days before they play
  const confirmation =
    event && slots && order.shoutTimes.length > 0
      ? confirmationFor({
          event,
          timeZoneId: tz,
          slotNumbers: order.shoutTimes.map((s) => s.slotNumber),
          minPresaleSlotEpochMs: slots.minPresaleSlotEpochMs,
        })
      : null

  // spec §9: an event with a presale date says so, and how long instant confirmation lasts (the
  // days from now to the minimum presale slot)
  const presaleFrom = slots?.minPresaleSlotEpochMs ?? null
  const instantDays = instantConfirmationDays(Date.now(), presaleFrom)
  const presaleDate = presaleFrom === null ? '' : displayDateTime(presaleFrom, tz, i18n.locale)

  const toggle = (slotNumber: number) => {
    if (!event || !device) return
    if (isSlotSelected(orderStore.shoutTimes, slotNumber)) {
      orderStore.shoutTimes = deselectSlot(orderStore.shoutTimes, slotNumber)
    } else {
      orderStore.shoutTimes = selectSlot(orderStore.shoutTimes, {
        slotNumber,
        label: slotLabel(event, tz, slotNumber),
      })
    }
  }

  return (
    <main className="page page--flow" id="main">
      <StepHeader
        step="select-shouts"
        title={<Trans>Choose your shout times</Trans>}
        lead={device?.location}
      />

      <div className="shouts__info">
        <p>{t`Times are shown in the billboard's time zone: ${zoneName} (${tz}).`}</p>
        <p>
          {t`Price per shout:`} <strong>{money(valueCentsPerSlot())}</strong>
        </p>
        {event ? <SlotPackage event={event} /> : null}
        {presaleFrom !== null && instantDays !== null ? (
          <p data-testid="presale-notice">
            <Plural
              value={instantDays}
              _0={`Shout times before ${presaleDate} are confirmed instantly.`}
              one={`Shout times in the next day, before ${presaleDate}, are confirmed instantly.`}
              other={`Shout times in the next # days, before ${presaleDate}, are confirmed instantly.`}
            />{' '}
            <Plural
              value={CONFIRMATION_DAYS_BEFORE}
              one="Later times are presale: they are confirmed # day before they play."
              other="Later times are presale: they are confirmed # days before they play."
            />
          </p>
        ) : null}
        <div className="button-row">
          <Button kind="link" size="small" onClick={() => toggleModal('CutOffTime')}>
            <Trans>Why can't I pick earlier times?</Trans>
          </Button>
          <Button kind="link" size="small" onClick={() => toggleModal('DoSomethingBig')}>
            <Trans>Planning something bigger?</Trans>
          </Button>
        </div>
      </div>

      {dropped > 0 ? (
        <Notice tone="error">
          <Plural
            value={dropped}
            one="One time you chose is no longer available and was removed."
            other="# times you chose are no longer available and were removed."
          />
        </Notice>
      ) : null}
      {devices.slotsStatus === 'Failure' && !slots ? (
        <Notice tone="error">
          <Trans>The shout times could not be loaded. Check your connection and try again.</Trans>
        </Notice>
      ) : null}

      {!slots ? (
        <Skeleton height={48} count={6} />
      ) : open.size === 0 ? (
        <Notice>
          <Trans>No shout time can still be bought on this billboard.</Trans>
        </Notice>
      ) : (
        <>
          <section aria-labelledby="days-heading">
            <h2 id="days-heading" className="section-title">
              <Trans>Day</Trans>
            </h2>
            <div className="days" ref={daysStrip}>
              {days.map((day, index) => {
                const chosen = day.numbers.filter((n) => isSlotSelected(order.shoutTimes, n)).length
                const isCurrent = currentDay === day
                return (
                  <button
                    key={day.date.toString()}
                    type="button"
                    className={`btn btn--dates btn--small ${isCurrent ? 'btn--dates-current' : ''}`}
                    aria-pressed={isCurrent}
                    disabled={day.numbers.length === 0}
                    onClick={() => setDayIndex(index)}
                  >
                    <span className="btn__label">
                      {dayName(day.date)}
                      {chosen > 0 ? <span className="days__count"> · {chosen}</span> : null}
                    </span>
                  </button>
                )
              })}
            </div>
          </section>
          {currentDay && event ? (
            <section aria-label={t`Shout times of ${dayName(currentDay.date)}`} className="bands">
              {TIME_OF_DAY_BANDS.map((band) => {
                const numbers = currentDay.numbers.filter(
                  (n) => timeOfDayBand(event, tz, n) === band.id,
                )
                if (numbers.length === 0) return null
                return (
                  <fieldset key={band.id} className="band">
                    <legend className="band__title">{i18n._(BAND_LABELS[band.id])}</legend>
                    <div className="slots">
                      {numbers.map((n) => {
                        const selected = isSlotSelected(order.shoutTimes, n)
                        const label = slotLabel(event, tz, n, i18n.locale)
                        const note = slotZoneNote(event, tz, n, i18n.locale)
                        return (
                          <button
                            key={n}
                            type="button"
                            className={`slot ${selected ? 'slot--selected' : ''}`}
                            aria-pressed={selected}
                            onClick={() => {
                              // the day stays in view when its last chosen time is unticked
                              setDayIndex(shownDay)
                              toggle(n)
                            }}
                          >
                            {label}
                            {note ? <span className="slot__zone"> {note}</span> : null}
                          </button>
                        )
                      })}
                    </div>
                  </fieldset>
                )
              })}
            </section>
          ) : null}
        </>
      )}

      {confirmation && !confirmation.instant ? (
        <RemainingDatesNotice days={confirmation.days} />
      ) : null}
      {price.firstShoutFree && order.orderPromo ? (
        <FirstShoutFree promoCode={order.orderPromo.promoCode} />
      ) : null}
      {order.shoutTimes.length > 0 && !meetsRecommendedMinimum(order.shoutTimes.length) ? (
        <Notice>
          <Trans>At least 2 slots recommended</Trans>
        </Notice>
      ) : null}

      <ActionBar>
        <div className="action-bar__info" aria-live="polite">
          <Plural value={order.shoutTimes.length} one="# shout" other="# shouts" />
          {' · '}
          <strong>{money(price.totalCents)}</strong>
        </div>
        <Button
          kind={order.shoutTimes.length > 0 ? 'orange' : 'disabled'}
          size="large"
          onClick={() => void navigate({ to: '/$eventslug/order/checkout', params: { eventslug } })}
        >
          <Trans>Continue</Trans>
        </Button>
      </ActionBar>
    </main>
  )
}

/** spec §3, what a shout buys, from the event's package and slot length. */
function SlotPackage({
  event,
}: {
  event: { slotWidthMS: number; playsPerSlot: number; secondsPerShout: number }
}) {
  const plays = event.playsPerSlot
  const minutes = Math.round(event.slotWidthMS / 60_000)
  const seconds = event.secondsPerShout
  return (
    <p data-testid="slot-package">
      <Trans>
        Each shout plays {plays} times in its {minutes}-minute slot, {seconds} seconds each
      </Trans>
    </p>
  )
}

/** spec §9: when the later dates of an order are confirmed. */
function RemainingDatesNotice({ days }: { days: number }) {
  return (
    <Notice>
      <Trans>Remaining dates confirmed {days} day(s) before the selected time</Trans>
    </Notice>
  )
}
