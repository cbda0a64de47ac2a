import { useLingui } from '@lingui/react/macro'
import { type ReactNode, useCallback, useEffect, useState } from 'react'
import type { OperatorInfo } from '../../contract/ops'
import { ops } from '../../contract/ops'
import { ApiError, callApi } from '../lib/api'

// The few pieces the schedule, catalogue and dashboard pages (issue 10, console part 2) share: the
// page's heading, a notice, loading with the console's failure messages, and the operator's role.
// They lean on nothing of the console shell's own files, so these pages stand in any layout; the
// shell lists them among its pages.

/** A page of the console: its one h1 (and the tab's title), its actions, then the page. */
export function BoPage({
  title,
  actions,
  children,
}: {
  title: string
  actions?: ReactNode
  children: ReactNode
}) {
  useEffect(() => {
    document.title = `${title} · Shouts Ops`
  }, [title])
  return (
    <section className="ops-page" aria-labelledby="bo-page-title">
      <div className="ops-page__head">
        <h1 id="bo-page-title" className="ops-page__title">
          {title}
        </h1>
        {actions ? <div className="ops-page__actions">{actions}</div> : null}
      </div>
      {children}
    </section>
  )
}

/** A message about the page as a whole, announced to screen readers. */
export function BoNotice({
  tone = 'info',
  children,
}: {
  tone?: 'info' | 'error' | 'success'
  children: ReactNode
}) {
  return (
    <div className={`ops-notice ops-notice--${tone}`} role={tone === 'error' ? 'alert' : 'status'}>
      {children}
    </div>
  )
}

/**
 * What a page says when a call fails (issue 10: clear messages for 401 and 403). A 401 (the session
 * ended) goes to sign-in, which comes back here after.
 */
export function useBoFailure(): (error: unknown) => string {
  const { t } = useLingui()
  return useCallback(
    (error: unknown) => {
      if (!(error instanceof ApiError)) {
        return t`The shop's server could not be reached. Check the connection and try again.`
      }
      if (error.statusCode === 401) {
        const back = `${window.location.pathname}${window.location.search}`
        window.location.assign(`/ops/sign-in?redirect=${encodeURIComponent(back)}`)
        return t`Your session has ended. Sign in again.`
      }
      if (error.statusCode === 403) {
        return t`Your role does not allow this. Ask an administrator if you need it.`
      }
      if (error.statusCode >= 500) return t`Something went wrong on the server. Try again.`
      return error.errors.join(' ') || t`The request failed (${error.statusCode}).`
    },
    [t],
  )
}

export type Loaded<T> =
  | { status: 'loading' }
  | { status: 'failed'; message: string }
  | { status: 'ready'; value: T }

/** Loads what a page shows, and a way to load it again. Nothing of it is stored in the browser. */
export function useBoLoad<T>(
  load: (signal: AbortSignal) => Promise<T>,
  deps: readonly unknown[],
): [Loaded<T>, () => void] {
  const failure = useBoFailure()
  const [state, setState] = useState<Loaded<T>>({ status: 'loading' })
  const [round, setRound] = useState(0)
  // biome-ignore lint/correctness/useExhaustiveDependencies: the caller names what its load reads
  useEffect(() => {
    const controller = new AbortController()
    load(controller.signal).then(
      (value) => {
        if (!controller.signal.aborted) setState({ status: 'ready', value })
      },
      (error: unknown) => {
        if (!controller.signal.aborted) setState({ status: 'failed', message: failure(error) })
      },
    )
    return () => controller.abort()
  }, [...deps, round])
  const again = useCallback(() => setRound((r) => r + 1), [])
  return [state, again]
}

/** The operator signed in (GET /ops/session), or null while it loads or when the call fails. */
export function useBoOperator(): OperatorInfo | null {
  const [operator] = useBoLoad((signal) => callApi(ops.session, { signal }), [])
  return operator.status === 'ready' ? operator.value : null
}
