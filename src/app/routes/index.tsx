import { Trans } from '@lingui/react/macro'
import { createFileRoute } from '@tanstack/react-router'

export const Route = createFileRoute('/')({
  component: Home,
})

function Home() {
  return (
    <main>
      <h1>
        <Trans>Share the Gift of a Billboard</Trans>
      </h1>
    </main>
  )
}
