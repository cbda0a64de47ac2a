import { Trans } from '@lingui/react/macro'
import { useRouter } from '@tanstack/react-router'
import { useEffect } from 'react'
import { onReconnect } from '../../lib/reconnect'
import { Button } from '../../ui/button'

/**
 * A page that failed while the browser is offline: before the service worker holds the app (the
 * first seconds of a first visit) a later step's code cannot come. Nothing the shopper entered is
 * lost; the page is loaded again as soon as the connection is back, or when asked.
 */
export function OfflinePage() {
  const router = useRouter()
  useEffect(() => onReconnect(() => void router.invalidate()), [router])
  return (
    <main className="page page--center" id="main">
      <h1>
        <Trans>You are offline</Trans>
      </h1>
      <p>
        <Trans>This page needs a connection to load. What you entered is kept.</Trans>
      </p>
      <Button kind="orange" onClick={() => void router.invalidate()}>
        <Trans>Try again</Trans>
      </Button>
    </main>
  )
}
