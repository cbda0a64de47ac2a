import { plural } from '@lingui/core/macro'
import { Trans, useLingui } from '@lingui/react/macro'
import { type RefObject, useEffect, useId, useRef, useState } from 'react'
import type { OpsScheduleDay, PlayProof } from '../../contract/ops/billboards'
import { opsBillboards } from '../../contract/ops/billboards'
import { callApi } from '../lib/api'
import { axisTicks } from './axis-ticks'
import { type Kind, type Run, runsOf } from './day-runs'
import { hourIn, timeIn } from './format'
import { NotReady } from './ops-frame'
import { useOpsLoad } from './use-ops-load'
import './day-timeline.css'

// A billboard's day as a picture: one band from local midnight to midnight, its shouts' plays on one
// lane, the campaigns' plays on another, the house card under everything else, and the plays that
// ended without proof in red. Plays close together are drawn as one run (a 15-second play is a
// hair's width of a day); each run says what it holds on hover. The same day is a list below, for
// screen readers and keyboards: every run with its times, what played and its proof.

/** The billboard's day, loaded: the Billboards page draws each billboard's today. */
export function BillboardDayTimeline({ deviceId }: { deviceId: string }) {
  const [schedule] = useOpsLoad(
    (signal) => callApi(opsBillboards.scheduleDay, { params: { deviceId }, signal }),
    [deviceId],
  )
  if (schedule.status !== 'ready') return <NotReady loaded={schedule} />
  return <DayTimeline day={schedule.value} />
}

export function DayTimeline({ day }: { day: OpsScheduleDay }) {
  const { t, i18n } = useLingui()
  const listId = useId()
  const runs = runsOf(day)
  const span = day.dayEndEpochMs - day.dayStartEpochMs
  const at = (epochMs: number) => ((epochMs - day.dayStartEpochMs) / span) * 100
  const time = (epochMs: number) => timeIn(epochMs, i18n.locale, day.timeZoneId)
  const axis = useRef<HTMLDivElement>(null)
  const width = useWidth(axis)
  const hour = (epochMs: number) => hourIn(epochMs, i18n.locale, day.timeZoneId)
  const ticks = axisTicks(day.dayStartEpochMs, day.dayEndEpochMs, width, hour)
  const count = (kind: Kind, proof?: PlayProof) =>
    runs
      .filter((r) => r.kind === kind && (proof === undefined || r.proof === proof))
      .reduce((n, r) => n + r.plays, 0)
  const shouts = count('shout')
  const ads = count('ad')
  const missing = count('shout', 'missing') + count('ad', 'missing')
  const summary = t`The day of ${day.location} from ${time(day.dayStartEpochMs)} (${day.timeZoneId}): ${shouts} shout plays, ${ads} campaign plays, ${missing} plays without proof; the house card the rest of the time.`
  const kindText: Record<Kind, string> = {
    shout: t`Shout`,
    ad: t`Campaign`,
    house: t`House card`,
  }
  const proofText = (proof: PlayProof | null) =>
    proof === 'proved'
      ? t`proved`
      : proof === 'missing'
        ? t`no proof`
        : proof === 'upcoming'
          ? t`upcoming`
          : proof === 'not-playing'
            ? t`not playing`
            : ''
  const label = (run: Run) => {
    const when = `${time(run.startEpochMs)}–${time(run.endEpochMs)}`
    if (run.kind === 'house') return `${when} ${kindText.house}`
    const plays = t({ message: plural(run.plays, { one: '# play', other: '# plays' }) })
    return `${when} ${kindText[run.kind]} ${run.what ?? ''} · ${plays} · ${proofText(run.proof)}`
  }
  return (
    <figure className="tl" data-testid="day-timeline">
      <ul className="tl__legend" aria-label={t`Legend`}>
        <li>
          <span className="tl__key tl__run--shout" aria-hidden="true" /> <Trans>Shouts</Trans>
        </li>
        <li>
          <span className="tl__key tl__run--ad" aria-hidden="true" /> <Trans>Campaigns</Trans>
        </li>
        <li>
          <span className="tl__key tl__run--house" aria-hidden="true" /> <Trans>House card</Trans>
        </li>
        <li>
          <span className="tl__key tl__run--missing" aria-hidden="true" /> <Trans>No proof</Trans>
        </li>
      </ul>
      <div className="tl__band" role="img" aria-label={summary} aria-describedby={listId}>
        {(['house', 'shout', 'ad'] as const).map((kind) => (
          <div key={kind} className={`tl__lane tl__lane--${kind}`}>
            {runs
              .filter((r) => r.kind === kind)
              .map((run) => (
                <span
                  key={`${run.startEpochMs}-${run.what}-${run.proof}`}
                  className={`tl__run tl__run--${run.proof === 'missing' ? 'missing' : kind}${run.proof === 'not-playing' ? ' tl__run--off' : ''}`}
                  style={{
                    left: `${at(run.startEpochMs)}%`,
                    width: `${at(run.endEpochMs) - at(run.startEpochMs)}%`,
                  }}
                  title={label(run)}
                  data-kind={kind}
                />
              ))}
          </div>
        ))}
      </div>
      <div className="tl__axis" aria-hidden="true" ref={axis}>
        {ticks.map((tick) => (
          <span key={tick} className="tl__tick" style={{ left: `${at(tick)}%` }}>
            {hour(tick)}
          </span>
        ))}
      </div>
      <figcaption className="tl__caption">
        <Trans>Times in {day.timeZoneId}.</Trans>
      </figcaption>
      <details className="tl__details">
        <summary>
          <Trans>The day as a list</Trans>
        </summary>
        <ol className="tl__list" id={listId}>
          {runs.map((run) => (
            <li key={`${run.kind}-${run.startEpochMs}-${run.what}-${run.proof}`}>{label(run)}</li>
          ))}
        </ol>
      </details>
    </figure>
  )
}

/** An element's width in CSS pixels, kept up to date as it changes (null before it is laid out). */
function useWidth(ref: RefObject<HTMLElement | null>): number | null {
  const [width, setWidth] = useState<number | null>(null)
  useEffect(() => {
    const element = ref.current
    if (!element) return
    setWidth(element.clientWidth)
    const observer = new ResizeObserver(() => setWidth(element.clientWidth))
    observer.observe(element)
    return () => observer.disconnect()
  }, [ref])
  return width
}
