import { Trans, useLingui } from '@lingui/react/macro'
import { Link } from '@tanstack/react-router'
import { problemText } from '../../lib/problem-text'
import { problemsOfError } from './problems'
import './advertisers.css'

/**
 * What an advertiser's page says when its loader was refused (a campaign of another account, one
 * that does not exist, the server out of reach): the problem in the page's language, and the way
 * back to the campaigns.
 */
export function AdvertiserPageError({ error }: { error: unknown }) {
  const { i18n } = useLingui()
  const [problem] = problemsOfError(error)
  return (
    <main className="page page--center" id="main">
      <h1>{problemText(i18n, problem ?? { code: 'unknown_error' })}</h1>
      <Link to="/campaigns">
        <Trans>Your campaigns</Trans>
      </Link>
    </main>
  )
}

/** A proposal's link refused (unknown, or the server out of reach): the problem, in the page's language. */
export function ProposalError({ error }: { error: unknown }) {
  const { i18n } = useLingui()
  const [problem] = problemsOfError(error)
  return (
    <main className="page page--center" id="main">
      <h1>{problemText(i18n, problem ?? { code: 'unknown_error' })}</h1>
    </main>
  )
}
