import { Trans, useLingui } from '@lingui/react/macro'
import { type ErrorComponentProps, Link, useRouter } from '@tanstack/react-router'
import { ApiError, statusCodeOf } from '../../lib/api'
import { translateError } from '../../lib/error-messages'
import { Button } from '../../ui/button'

// spec §2 error page: 404 'This page doesn't exist' with the invalid-link note; any other status
// 'Application Error' (or the error message) with Attempt Reload and Go Back.
export function NotFoundPage() {
  return (
    <main className="page page--center" id="main">
      <p className="error-page__code" aria-hidden="true">
        404
      </p>
      <h1>
        <Trans>This page doesn't exist</Trans>
      </h1>
      <p>
        <Trans>This page could not be found. The link you followed is not valid.</Trans>
      </p>
      <Link to="/" className="btn btn--orange btn--large btn--side-center">
        <span className="btn__label">
          <Trans>Go to the homepage</Trans>
        </span>
      </Link>
    </main>
  )
}

export function ErrorPage({ error }: ErrorComponentProps) {
  const { i18n, t } = useLingui()
  const router = useRouter()
  if (statusCodeOf(error) === 404) return <NotFoundPage />
  // The server's reason in the shopper's language, by its code when the answer gave one
  // (a page rendered on the server hands the browser the error's text only: the text finds its code)
  const detail =
    error instanceof Error && error.message
      ? translateError(i18n, error.message, error instanceof ApiError ? error.codes[0] : null)
      : null
  return (
    <main className="page page--center" id="main">
      <h1>{t`Application Error`}</h1>
      <p>
        <Trans>
          Something went wrong on our side. Your billboard content is safe: reload the page to try
          again, or go back to the previous page.
        </Trans>
      </p>
      {detail ? <p className="error-page__detail">{detail}</p> : null}
      <div className="button-row">
        <Button kind="orange" onClick={() => window.location.reload()}>
          <Trans>Attempt Reload</Trans>
        </Button>
        <Button kind="smoke" onClick={() => router.history.back()}>
          <Trans>Go Back</Trans>
        </Button>
      </div>
    </main>
  )
}
