import { createFileRoute, redirect } from '@tanstack/react-router'
import { StepsLayout } from '../../../features/shell/steps-layout'
import { flowRedirect } from '../../../stores/flow-guard'

export const Route = createFileRoute('/_default/$eventslug/_steps')({
  beforeLoad: async ({ params, location, preload }) => {
    // The server renders only the flow's first step, and knows no shopper's saved state: the
    // browser runs the guard once it is restored (src/app/start.tsx).
    if (import.meta.env.SSR) return
    const to = await flowRedirect(location.pathname, location.search)
    // beforeLoad also runs on preloads (a hover, the next step's prefetch): only a real navigation
    // redirects (conventions §4); a preload only brings the guard's code along
    if (to && !preload) {
      throw redirect({
        to: to as '/$eventslug/design/location',
        params: { eventslug: params.eventslug },
        search: location.search,
      })
    }
  },
  component: StepsLayout,
})
