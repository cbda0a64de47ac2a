import { Trans, useLingui } from '@lingui/react/macro'
import { Link } from '@tanstack/react-router'
import { messages } from '../../../domain/messages'
import { translateMessage } from '../../lib/domain-messages'

/** spec §2/§8: 'Event not found' with a link back to the homepage. */
export function EventNotFoundPage() {
  const { i18n } = useLingui()
  return (
    <main className="page page--center" id="main">
      <h1>{translateMessage(i18n, messages.eventNotFound)}</h1>
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
