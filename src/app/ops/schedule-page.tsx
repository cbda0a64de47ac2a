import { Trans, useLingui } from '@lingui/react/macro'
import { useState } from 'react'
import type { OpsScheduleDay, PlayerLink } from '../../contract/ops/billboards'
import { opsBillboards } from '../../contract/ops/billboards'
import { roleAllows } from '../../domain/ops'
import { callApi } from '../lib/api'
import { DayTimeline } from './day-timeline'
import { useOpsFailure } from './errors'
import { dateTimeIn } from './format'
import { useOperator } from './operator'
import { Notice, NotReady, OpsPage } from './ops-frame'
import { PlayerLinkShown } from './player-link-shown'
import { useAddressSearch } from './use-address-search'
import { useOpsLoad } from './use-ops-load'
import './backoffice.css'

/** The billboard and day, in the address (`?device=…&day=…`), so a page can be shared or reloaded. */
const SCHEDULE_SEARCH_KEYS = ['device', 'day'] as const

/**
 * Per billboard and day (the billboard's time zone) what plays when, drawn as the day's band
 * (day-timeline.tsx): shouts, campaigns, the house card, and past plays without proof marked.
 * Admins make or rotate the billboard's player link here; the new link is shown once.
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
      {s.events.every((e) => e.slots.length === 0) && s.adPlays.length === 0 ? (
        <p className="ops-empty">
          <Trans>No event runs on this billboard that day.</Trans>
        </p>
      ) : (
        <>
          {s.events
            .filter((e) => e.slots.length > 0)
            .map((event) => (
              <p key={event.slug} className="ops-subtitle">
                <Trans>
                  {event.name}: each sold slot plays {event.playsPerSlot} times,{' '}
                  {event.secondsPerShout} s each.
                </Trans>
              </p>
            ))}
          <DayTimeline day={s} />
        </>
      )}
    </>
  )
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
            A player link is live since{' '}
            {dateTimeIn(link.createdAtEpochMs, i18n.locale, schedule.timeZoneId)}.
          </Trans>
        ) : (
          <Trans>This billboard has no player link.</Trans>
        )}
      </p>
      {made ? (
        <Notice tone="success">
          <Trans>New player link (shown only now: copy it to the billboard's player):</Trans>
          <PlayerLinkShown url={made.url} />
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
