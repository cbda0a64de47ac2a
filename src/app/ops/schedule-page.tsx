import { Trans, useLingui } from '@lingui/react/macro'
import { useState } from 'react'
import type { OpsScheduleDay, OpsSlot, PlayerLink, PlayProof } from '../../contract/ops/billboards'
import { opsBillboards } from '../../contract/ops/billboards'
import { roleAllows } from '../../domain/ops'
import { callApi } from '../lib/api'
import { useOpsFailure } from './errors'
import { dateTimeIn, timeIn } from './format'
import { useOperator } from './operator'
import { Notice, NotReady, OpsPage } from './ops-frame'
import { useAddressSearch } from './use-address-search'
import { useOpsLoad } from './use-ops-load'
import './backoffice.css'

/** The billboard and day, in the address (`?device=…&day=…`), so a page can be shared or reloaded. */
const SCHEDULE_SEARCH_KEYS = ['device', 'day'] as const

/**
 * Per billboard and day (the billboard's time zone) what plays when, which
 * slots are sold and free, and for past plays whether the proof arrived (a sold play without proof
 * is marked). Admins make or rotate the billboard's player link here; the new link is shown once.
 */
export function SchedulePage() {
  const { t } = useLingui()
  const [search, go] = useAddressSearch(SCHEDULE_SEARCH_KEYS)
  const [billboards] = useOpsLoad(
    (signal) => callApi(opsBillboards.billboards, { signal }).then((r) => r.billboards),
    [],
  )
  const list = billboards.status === 'ready' ? billboards.value : []
  const device = search.device ?? list[0]?.deviceId
  return (
    <OpsPage title={t`Schedule`}>
      {billboards.status !== 'ready' ? (
        <NotReady loaded={billboards} />
      ) : list.length === 0 ? (
        <p className="ops-empty">
          <Trans>No billboard yet: import a catalogue first.</Trans>
        </p>
      ) : (
        <>
          <form className="bo-controls" onSubmit={(e) => e.preventDefault()}>
            <label>
              <span>
                <Trans>Billboard</Trans>
              </span>
              <select
                value={device}
                onChange={(e) => go({ device: e.target.value, day: undefined })}
              >
                {list.map((b) => (
                  <option key={b.deviceId} value={b.deviceId}>
                    {b.deviceId} — {b.location}
                  </option>
                ))}
              </select>
            </label>
          </form>
          {device ? (
            <BillboardDay
              key={device}
              deviceId={device}
              day={search.day}
              onDay={(day) => go({ device, day })}
            />
          ) : null}
        </>
      )}
    </OpsPage>
  )
}

function BillboardDay({
  deviceId,
  day,
  onDay,
}: {
  deviceId: string
  day: string | undefined
  onDay: (day: string) => void
}) {
  const { t } = useLingui()
  const [schedule, reload] = useOpsLoad(
    (signal) =>
      callApi(opsBillboards.scheduleDay, { params: { deviceId }, query: { day }, signal }),
    [deviceId, day],
  )
  if (schedule.status !== 'ready') return <NotReady loaded={schedule} />
  const s = schedule.value
  return (
    <>
      <PlayerLinkPanel schedule={s} onMade={reload} />
      <nav className="bo-days" aria-label={t`Day`}>
        <button
          type="button"
          className="ops-button ops-button--quiet"
          onClick={() => onDay(s.previousDay)}
        >
          <Trans>Previous day</Trans>
        </button>
        <label>
          <span>
            <Trans>Day ({s.timeZoneId})</Trans>
          </span>
          <input
            type="date"
            value={s.day}
            onChange={(e) => {
              if (e.target.value) onDay(e.target.value)
            }}
          />
        </label>
        <button
          type="button"
          className="ops-button ops-button--quiet"
          onClick={() => onDay(s.nextDay)}
        >
          <Trans>Next day</Trans>
        </button>
      </nav>
      <p className="bo-totals" aria-live="polite">
        <Trans>
          {s.totals.sold} sold, {s.totals.held} held, {s.totals.free} free of {s.totals.slots} slots
          · plays: {s.totals.proved} proved, {s.totals.missing} without proof
        </Trans>
      </p>
      {s.events.every((e) => e.slots.length === 0) ? (
        <p className="ops-empty">
          <Trans>No event runs on this billboard that day.</Trans>
        </p>
      ) : (
        s.events
          .filter((e) => e.slots.length > 0)
          .map((event) => (
            <section
              key={event.slug}
              className="bo-event-day"
              aria-labelledby={`day-${event.slug}`}
            >
              <h2 id={`day-${event.slug}`}>{event.name}</h2>
              <p className="ops-subtitle">
                <Trans>
                  Each sold slot plays {event.playsPerSlot} times, {event.secondsPerShout} s each.
                </Trans>
              </p>
              <div className="ops-table-wrap">
                <table className="ops-table bo-slots">
                  <thead>
                    <tr>
                      <th scope="col">
                        <Trans>Time</Trans>
                      </th>
                      <th scope="col">
                        <Trans>Slot</Trans>
                      </th>
                      <th scope="col">
                        <Trans>What plays</Trans>
                      </th>
                      <th scope="col">
                        <Trans>Proof of play</Trans>
                      </th>
                    </tr>
                  </thead>
                  <tbody>
                    {event.slots.map((slot) => (
                      <SlotRow key={slot.slotNumber} slot={slot} timeZoneId={s.timeZoneId} />
                    ))}
                  </tbody>
                </table>
              </div>
            </section>
          ))
      )}
    </>
  )
}

function SlotRow({ slot, timeZoneId }: { slot: OpsSlot; timeZoneId: string }) {
  const { t, i18n } = useLingui()
  const missing = slot.plays.some((p) => p.proof === 'missing')
  return (
    <tr className={`bo-slot bo-slot--${slot.status}${missing ? ' bo-slot--missing' : ''}`}>
      <th scope="row">
        {timeIn(slot.startEpochMs, i18n.locale, timeZoneId)}–
        {timeIn(slot.endEpochMs, i18n.locale, timeZoneId)}
      </th>
      <td>
        {slot.status === 'sold' ? (
          <Trans>Sold</Trans>
        ) : slot.status === 'held' ? (
          <Trans>Held (being paid)</Trans>
        ) : (
          <Trans>Free</Trans>
        )}
      </td>
      <td>
        {slot.order ? (
          <div className="bo-what">
            {slot.order.content ? (
              slot.order.content.type === 'video' ? (
                <video
                  className="bo-thumb"
                  src={slot.order.content.url}
                  muted
                  playsInline
                  preload="metadata"
                  aria-label={t`The shout's video`}
                />
              ) : (
                <img
                  className="bo-thumb"
                  src={slot.order.content.url}
                  alt={t`The shout`}
                  loading="lazy"
                  width={96}
                  height={28}
                />
              )
            ) : null}
            <span className="bo-order">
              <code>{slot.order.guid.slice(0, 8)}</code> {slot.order.email}
              {slot.order.state === 'UnderReview' ? (
                <>
                  {' '}
                  <Trans>(under review: does not play yet)</Trans>
                </>
              ) : null}
            </span>
          </div>
        ) : (
          <span className="bo-muted">
            <Trans>House card</Trans>
          </span>
        )}
      </td>
      <td>
        {slot.plays.length === 0 ? (
          '—'
        ) : (
          <ul className="bo-plays">
            {slot.plays.map((play) => (
              <li key={play.playIndex} className={`bo-proof bo-proof--${play.proof}`}>
                {timeIn(play.startEpochMs, i18n.locale, timeZoneId)}{' '}
                <ProofLabel proof={play.proof} />
              </li>
            ))}
          </ul>
        )}
      </td>
    </tr>
  )
}

function ProofLabel({ proof }: { proof: PlayProof }) {
  switch (proof) {
    case 'proved':
      return (
        <span>
          ✓ <Trans>proved</Trans>
        </span>
      )
    case 'missing':
      return (
        <strong>
          ⚠ <Trans>no proof</Trans>
        </strong>
      )
    case 'upcoming':
      return (
        <span>
          <Trans>upcoming</Trans>
        </span>
      )
    case 'not-playing':
      return (
        <span>
          <Trans>not playing</Trans>
        </span>
      )
  }
}

/** The billboard's player link: whether one is live, and (admins) a new one, shown once. */
function PlayerLinkPanel({ schedule, onMade }: { schedule: OpsScheduleDay; onMade: () => void }) {
  const { t, i18n } = useLingui()
  const operator = useOperator()
  const failure = useOpsFailure()
  const [made, setMade] = useState<PlayerLink | null>(null)
  const [error, setError] = useState<string | null>(null)
  const [busy, setBusy] = useState(false)
  const link = schedule.playerLink
  const make = async () => {
    if (
      link.active &&
      !window.confirm(t`The billboard's current player link stops working at once. Make a new one?`)
    )
      return
    setBusy(true)
    setError(null)
    try {
      setMade(
        await callApi(opsBillboards.playerLink, {
          params: { deviceId: schedule.deviceId },
          body: {},
        }),
      )
      onMade()
    } catch (e) {
      setError(failure(e))
    } finally {
      setBusy(false)
    }
  }
  return (
    <section className="ops-card bo-link" aria-labelledby="bo-link-title">
      <h2 id="bo-link-title">
        <Trans>Player link</Trans>
      </h2>
      <p>
        {schedule.location}.{' '}
        {link.active && link.createdAtEpochMs !== null ? (
          <Trans>
            A player link is live since {dateTimeIn(link.createdAtEpochMs, i18n.locale)}.
          </Trans>
        ) : (
          <Trans>This billboard has no player link.</Trans>
        )}
      </p>
      {made ? (
        <Notice tone="success">
          <Trans>New player link (shown only now: copy it to the billboard's player):</Trans>{' '}
          <input
            className="bo-link__url"
            readOnly
            value={made.url}
            aria-label={t`New player link`}
            onFocus={(e) => e.currentTarget.select()}
          />
        </Notice>
      ) : null}
      {error ? <Notice tone="error">{error}</Notice> : null}
      {roleAllows(operator.role, opsBillboards.playerLink.access) ? (
        <button type="button" className="ops-button" onClick={make} disabled={busy}>
          {link.active ? (
            <Trans>Make a new link (the old one stops)</Trans>
          ) : (
            <Trans>Make a player link</Trans>
          )}
        </button>
      ) : null}
    </section>
  )
}
