import { createFileRoute, redirect } from '@tanstack/react-router'
import { EventLayout } from '../../features/shell/event-layout'
import { eventStore, loadEvent } from '../../stores/event'
import { bindOrderToEvent } from '../../stores/order'

// spec §2 event guard: load or keep the event; an errored slug goes to the localized
// /event-not-found, the query string kept.
export const Route = createFileRoute('/_default/$eventslug')({
  beforeLoad: async ({ params, location, preload }) => {
    await loadEvent(params.eventslug)
    if (eventStore.erroredSlug === params.eventslug) {
      if (preload) return
      throw redirect({ to: '/event-not-found', search: location.search })
    }
    if (!preload) bindOrderToEvent(params.eventslug)
  },
  component: EventLayout,
})
