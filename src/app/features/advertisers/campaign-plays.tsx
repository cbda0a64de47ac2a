import { Trans, useLingui } from '@lingui/react/macro'
import { useState } from 'react'
import { advertisers, type Campaign } from '../../../contract/advertisers'
import { pathOf } from '../../../contract/endpoint'
import type { ProblemData } from '../../../domain/problems'
import { useLoad } from '../../lib/use-load'
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
  const [problems, setProblems] = useState<ProblemData[]>([])
  const [saving, setSaving] = useState(false)
  // read again when the state changes (a cancelled campaign's plays to come are freed)
  const [loaded] = useLoad(
    (signal) => callAsAdvertiser(advertisers.nextPlays, { params: { campaignId }, signal }),
    [campaignId, state],
    problemsOfError,
  )
  const next = loaded.status === 'ready' ? loaded.value : null
  const shownProblems = loaded.status === 'failed' ? [...loaded.message, ...problems] : problems

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
      {loaded.status === 'loading' ? (
        <div className="skeleton" style={{ height: 80 }} aria-busy="true" />
      ) : next === null ? null : next.plays.length === 0 ? (
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
      {shownProblems.length > 0 ? <ProblemList problems={shownProblems} /> : null}
      <div className="adv__actions">
        <Button kind={saving ? 'loading' : 'white'} onClick={() => void download()}>
          {t`Download the report (CSV)`}
        </Button>
      </div>
    </section>
  )
}
