import { Trans, useLingui } from '@lingui/react/macro'
import { type ErrorComponentProps, Link, useRouter } from '@tanstack/react-router'
import { problemOfIssueMessage } from '../../../domain/problems'
import { ApiError, statusCodeOf } from '../../lib/api'
import { problemText } from '../../lib/problem-text'
import { Button } from '../../ui/button'

// spec §2 error page: 404 'This page doesn't exist' with the invalid-link note; any other status
// 'Application Error' (or the error message) with Attempt Reload and Go Back.
export function NotFoundPage() {
  const { i18n } = useLingui()
  return (
    <main className="page page--center" id="main">
      <p className="error-page__code" aria-hidden="true">
        404
      </p>
      <h1>
        <Trans>This page doesn't exist</Trans>
      </h1>
      <p>
        {problemText(i18n, { code: 'page_not_found' })}.{' '}
        <Trans>The link you followed is not valid.</Trans>
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
  // The server's reason in the shopper's language, by its code. A page rendered on the server hands
  // the browser the error's message only: an ApiError's message is its first problem (lib/api.ts).
  const problem =
    error instanceof ApiError
      ? error.problems[0]
      : error instanceof Error
        ? problemOfIssueMessage(error.message)
        : null
  const detail = problem
    ? problemText(i18n, problem, error instanceof ApiError ? error.errors[0] : undefined)
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
