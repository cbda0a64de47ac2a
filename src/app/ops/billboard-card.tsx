import { Trans, useLingui } from '@lingui/react/macro'
import type { BillboardHealth, BillboardStateName } from '../../contract/billboards'
import { CLOCK_TOLERANCE_MS } from '../../domain/billboard-health'
import { Code } from './code'
import { BillboardDayTimeline } from './day-timeline'
import { dateTimeIn, timeUntil } from './format'

// A billboard's state line and what its player last said (the fleet's page opens it): its state, when
// it was last seen, which player, its clock against the server's, today's sold plays, and what its
// web player showed, cached and holds; then its day as a timeline.

export function BillboardCard({
  billboard: b,
  nowMs,
}: {
  billboard: BillboardHealth
  nowMs: number
}) {
  const { i18n } = useLingui()
  const titleId = `ops-billboard-${b.deviceId}`
  return (
    <article className="ops-card ops-billboard" aria-labelledby={titleId}>
      <div className="ops-billboard__head">
        <h2 id={titleId} className="ops-card__title">
          {b.location}
        </h2>
        <StateBadge state={b.state} />
      </div>
      <p className="ops-card__meta">
        {b.city} · <Code>{b.deviceId}</Code>
      </p>
      <dl className="ops-facts">
        <dt>
          <Trans>Last seen</Trans>
        </dt>
        <dd>
          {b.lastSeenEpochMs === null ? (
            <Trans>never</Trans>
          ) : (
            <>
              {dateTimeIn(b.lastSeenEpochMs, i18n.locale, b.timeZoneId)} (
              {timeUntil(b.lastSeenEpochMs, nowMs, i18n.locale)})
            </>
          )}
        </dd>
        <dt>
          <Trans>Player</Trans>
        </dt>
        <dd>
          {b.player === 'garlic' ? (
            'garlic-player'
          ) : b.player === 'iadea' ? (
            'IAdea'
          ) : b.player === 'signageos' ? (
            'signageOS'
          ) : b.source === 'web' ? (
            <Trans>our web player</Trans>
          ) : b.source === 'smil' ? (
            <Trans>a SMIL player</Trans>
          ) : (
            '—'
          )}
        </dd>
        {b.source === 'smil' ? (
          <>
            <dt>
              <Trans>Last play log</Trans>
            </dt>
            <dd>
              {b.lastPlayLogEpochMs === null ? (
                <Trans>no play log yet</Trans>
              ) : (
                <>
                  {dateTimeIn(b.lastPlayLogEpochMs, i18n.locale, b.timeZoneId)} (
                  {timeUntil(b.lastPlayLogEpochMs, nowMs, i18n.locale)})
                </>
              )}
            </dd>
          </>
        ) : null}
        <dt>
          <Trans>Clock</Trans>
        </dt>
        <dd>
          <ClockOffset offsetMs={b.clockOffsetMs} />
        </dd>
        <dt>
          <Trans>Sold plays today</Trans>
        </dt>
        <dd>
          <Trans>
            {b.today.due} due, {b.today.proven} proven, {b.today.missed} missed
          </Trans>
        </dd>
        {b.beat ? (
          <>
            <dt>
              <Trans>Showing</Trans>
            </dt>
            <dd>
              {b.beat.showing.kind === 'house' ? (
                <Trans>the house card</Trans>
              ) : b.beat.showing.kind === 'ad' ? (
                <Trans>
                  an ad: campaign <code>{b.beat.showing.campaignId.slice(0, 8)}</code>
                </Trans>
              ) : (
                <Trans>
                  a shout: order <code>{b.beat.showing.orderGuid.slice(0, 8)}</code>, slot{' '}
                  {b.beat.showing.slotNumber}
                </Trans>
              )}
            </dd>
            <dt>
              <Trans>Files</Trans>
            </dt>
            <dd>
              <Trans>
                {b.beat.files.cached} cached, {b.beat.files.failed} failed
              </Trans>
            </dd>
            <dt>
              <Trans>Proofs waiting</Trans>
            </dt>
            <dd>{b.beat.pendingPlays}</dd>
            <dt>
              <Trans>Version</Trans>
            </dt>
            <dd>{b.beat.version}</dd>
            <dt>
              <Trans>Screen</Trans>
            </dt>
            <dd>
              {b.beat.screen.widthPx} × {b.beat.screen.heightPx}
            </dd>
          </>
        ) : null}
      </dl>
      <BillboardDayTimeline deviceId={b.deviceId} />
    </article>
  )
}

/** The state in words, with a mark of its colour (the words carry it; the colour only repeats it). */
export function StateBadge({ state }: { state: BillboardStateName }) {
  const words =
    state === 'playing' ? (
      <Trans>Playing</Trans>
    ) : state === 'stale' ? (
      <Trans>Late to report</Trans>
    ) : state === 'offline' ? (
      <Trans>Offline</Trans>
    ) : (
      <Trans>Never connected</Trans>
    )
  return <span className={`ops-billboard__state ops-billboard__state--${state}`}>{words}</span>
}

/** The player's clock against the server's: on time within the tolerance, else slow or fast by how much. */
function ClockOffset({ offsetMs }: { offsetMs: number | null }) {
  const { i18n } = useLingui()
  if (offsetMs === null) return <Trans>not measured</Trans>
  if (Math.abs(offsetMs) <= CLOCK_TOLERANCE_MS) return <Trans>on time</Trans>
  const amount = duration(Math.abs(offsetMs), i18n.locale)
  // server minus player: positive when the player's clock is behind
  return offsetMs > 0 ? (
    <Trans>{amount} slow (corrected)</Trans>
  ) : (
    <Trans>{amount} fast (corrected)</Trans>
  )
}

/** "45 s", "5 min", "3 h": a duration in its largest whole unit, in the page's language. */
function duration(ms: number, locale: string): string {
  const seconds = Math.round(ms / 1000)
  const [value, unit] =
    seconds >= 5_400
      ? [seconds / 3_600, 'hour']
      : seconds >= 90
        ? [seconds / 60, 'minute']
        : [seconds, 'second']
  return new Intl.NumberFormat(locale, {
    style: 'unit',
    unit,
    unitDisplay: 'short',
    maximumFractionDigits: 0,
  }).format(value)
}
