import { createFileRoute, redirect } from '@tanstack/react-router'
import { StepsLayout } from '../../../features/shell/steps-layout'
import { flowRedirect } from '../../../stores/step-progress'

export const Route = createFileRoute('/_default/$eventslug/_steps')({
  beforeLoad: ({ params, location, preload }) => {
    // beforeLoad also runs on hover preloads: only a real navigation redirects (conventions §4).
    // The server renders only the flow's first step, and knows no shopper's saved state: the
    // browser runs the guard once it is restored (src/app/start.tsx).
    if (preload || import.meta.env.SSR) return
    const to = flowRedirect(location.pathname, location.search)
    if (to) {
      throw redirect({
        to: to as '/$eventslug/design/location',
        params: { eventslug: params.eventslug },
        search: location.search,
      })
    }
  },
  component: StepsLayout,
})
