import { Trans, useLingui } from '@lingui/react/macro'
import { useEffect, useState } from 'react'
import { advertisers, type Campaign, type NextPlays } from '../../../contract/advertisers'
import { pathOf } from '../../../contract/endpoint'
import type { ProblemData } from '../../../domain/problems'
import { Button } from '../../ui/button'
import { ProblemList } from '../../ui/problem-list'
import { problemsOfError } from './problems'
import { callAsAdvertiser, fileAsAdvertiser } from './session'

/**
 * A play's time on its billboard's own clock, which is how the advertiser plans it: "Tue 1 Dec,
 * 08:28" (the locale's day and hour, no seconds), its clock named after by its city.
 */
const localTime = (epochMs: number, timeZone: string, locale: string) =>
  new Intl.DateTimeFormat(locale, {
    weekday: 'short',
    day: 'numeric',
    month: 'short',
    hour: '2-digit',
    minute: '2-digit',
    timeZone,
  }).format(epochMs)

/**
 * The campaign's next plays (billboard, its local time) and its report as a CSV file. The CSV is
 * fetched with the access token in its header and saved from memory: a plain link would carry no
 * token, and the token never goes into an address.
 */
export function CampaignPlays({ campaign }: { campaign: Campaign }) {
  const { t, i18n } = useLingui()
  const { campaignId, state } = campaign
  const [next, setNext] = useState<NextPlays | null>(null)
  const [problems, setProblems] = useState<ProblemData[]>([])
  const [saving, setSaving] = useState(false)

  // biome-ignore lint/correctness/useExhaustiveDependencies: read again when the state changes (a cancelled campaign's plays to come are freed)
  useEffect(() => {
    const abort = new AbortController()
    callAsAdvertiser(advertisers.nextPlays, { params: { campaignId }, signal: abort.signal })
      .then(setNext)
      .catch((error: unknown) => {
        if (!abort.signal.aborted) setProblems(problemsOfError(error))
      })
    return () => abort.abort()
  }, [campaignId, state])

  const download = async () => {
    setSaving(true)
    setProblems([])
    try {
      const csv = await fileAsAdvertiser(
        pathOf(advertisers.report, { campaignId }, { format: 'csv' }),
      )
      const url = URL.createObjectURL(csv)
      const link = document.createElement('a')
      link.href = url
      link.download = `campaign-${campaignId}.csv`
      document.body.append(link)
      link.click()
      link.remove()
      // the browser has taken the file once the click's task is over
      setTimeout(() => URL.revokeObjectURL(url), 0)
    } catch (error) {
      setProblems(problemsOfError(error))
    } finally {
      setSaving(false)
    }
  }

  return (
    <section className="card" aria-labelledby="campaign-next-plays">
      <h2 className="section-title" id="campaign-next-plays">
        <Trans>Next plays</Trans>
      </h2>
      {state === 'Paused' ? (
        <p className="field__hint">
          <Trans>The campaign is paused: these plays are kept and play once it resumes.</Trans>
        </p>
      ) : null}
      {next === null ? (
        <div className="skeleton" style={{ height: 80 }} aria-busy="true" />
      ) : next.plays.length === 0 ? (
        <p className="field__hint">
          <Trans>No play to come.</Trans>
        </p>
      ) : (
        <ol className="adv__plays">
          {next.plays.map((play) => {
            const time = localTime(play.startEpochMs, play.timeZoneId, i18n.locale)
            const city = play.city
            return (
              <li key={`${play.deviceId}@${play.startEpochMs}`}>
                <span className="adv__play-where">{play.location}</span>{' '}
                <time dateTime={new Date(play.startEpochMs).toISOString()}>
                  {city ? t`${time}, ${city} time` : time}
                </time>
              </li>
            )
          })}
        </ol>
      )}
      {problems.length > 0 ? <ProblemList problems={problems} /> : null}
      <div className="adv__actions">
        <Button kind={saving ? 'loading' : 'white'} onClick={() => void download()}>
          {t`Download the report (CSV)`}
        </Button>
      </div>
    </section>
  )
}
