import { Trans } from '@lingui/react/macro'
import type { ReactNode } from 'react'
import { useEffect } from 'react'
import type { Loaded } from './use-ops-load'
import './ops.css'

/** Every console page, signed in or not: the console's look (ops.css) around the page. */
export function OpsFrame({ children }: { children: ReactNode }) {
  return <div className="ops">{children}</div>
}

/** Names the browser tab after the page (spec §1's shop title is the shop's). */
export function usePageTitle(title: string): void {
  useEffect(() => {
    document.title = `${title} · Shouts Ops`
  }, [title])
}

/**
 * A page of the console: its title as the page's one h1 (and the tab's), what it does beside it
 * (buttons), then the page.
 */
export function OpsPage({
  title,
  actions,
  children,
}: {
  title: string
  actions?: ReactNode
  children: ReactNode
}) {
  usePageTitle(title)
  return (
    <section className="ops-page" aria-labelledby="ops-page-title">
      <div className="ops-page__head">
        <h1 id="ops-page-title" className="ops-page__title">
          {title}
        </h1>
        {actions ? <div className="ops-page__actions">{actions}</div> : null}
      </div>
      {children}
    </section>
  )
}

/** A message about the page as a whole (a failed load, a refusal), announced to screen readers. */
export function Notice({
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

/** What a page shows of a load (useOpsLoad) until its value is there: busy, or why it failed. */
export function NotReady({ loaded }: { loaded: Exclude<Loaded<unknown>, { status: 'ready' }> }) {
  return loaded.status === 'loading' ? (
    <p aria-busy="true">
      <Trans>Loading…</Trans>
    </p>
  ) : (
    <Notice tone="error">{loaded.message}</Notice>
  )
}

/**
 * The first cell of a table's row: the row's name as a button that opens the row's detail, pressed
 * while that detail is open.
 */
export function RowOpener({
  open,
  onOpen,
  children,
}: {
  open: boolean
  onOpen: () => void
  children: ReactNode
}) {
  return (
    <th scope="row">
      <button type="button" className="ops-linkish" onClick={onOpen} aria-pressed={open}>
        {children}
      </button>
    </th>
  )
}

/** Loads the page's data again (useOpsLoad's reload), at the operator's request. */
export function RefreshButton({ onClick }: { onClick: () => void }) {
  return (
    <button type="button" className="ops-button ops-button--quiet" onClick={onClick}>
      <Trans>Refresh</Trans>
    </button>
  )
}
