import { Trans, useLingui } from '@lingui/react/macro'
import { useParams, useRouteContext } from '@tanstack/react-router'
import { ConsoleLayout } from './console-layout'
import { Notice, OpsFrame, OpsPage } from './ops-frame'
import { pageOf } from './pages'

/** The console (src/app/routes/ops.$.tsx): the page of the address, in its frame. */
export function OpsApp() {
  const { _splat } = useParams({ from: '/ops/$' })
  const { operator } = useRouteContext({ from: '/ops/$' })
  const page = pageOf(_splat ?? '')
  if (!page) {
    return (
      <OpsFrame>
        <main className="ops-door">
          <NoSuchPage />
        </main>
      </OpsFrame>
    )
  }
  const Page = page.component
  if (page.access === 'public' || !operator) {
    return (
      <OpsFrame>
        <Page />
      </OpsFrame>
    )
  }
  return (
    <OpsFrame>
      <ConsoleLayout operator={operator} page={page} />
    </OpsFrame>
  )
}

function NoSuchPage() {
  const { t } = useLingui()
  return (
    <OpsPage title={t`Page not found`}>
      <Notice tone="error">
        <Trans>The console has no such page.</Trans>
      </Notice>
      <a href="/ops/review">
        <Trans>To the review queue</Trans>
      </a>
    </OpsPage>
  )
}
