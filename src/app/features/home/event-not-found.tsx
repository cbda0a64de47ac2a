import { Trans, useLingui } from '@lingui/react/macro'
import { Link } from '@tanstack/react-router'
import { problemText } from '../../lib/problem-text'

/** spec §2/§8: event_not_found's sentence with a link back to the homepage. */
export function EventNotFoundPage() {
  const { i18n } = useLingui()
  return (
    <main className="page page--center" id="main">
      <h1>{problemText(i18n, { code: 'event_not_found' })}</h1>
      <p>
        <Trans>
          This event does not exist or is over. Check the link, or pick one of the live events.
        </Trans>
      </p>
      <Link to="/" className="btn btn--orange btn--large btn--side-center">
        <span className="btn__label">
          <Trans>Back to the homepage</Trans>
        </span>
      </Link>
    </main>
  )
}
