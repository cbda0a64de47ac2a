import { createFileRoute, redirect } from '@tanstack/react-router'
import { EventLayout } from '../../features/shell/event-layout'
import { eventForSlug } from '../../stores/event'
import { bindOrderToEvent } from '../../stores/order'

// spec §2 event guard: load or keep the event; an errored slug goes to the localized
// /event-not-found, the query string kept. The event is the pages' context (what the server
// rendered them with).
export const Route = createFileRoute('/_default/$eventslug')({
  beforeLoad: async ({ params, location, preload }) => {
    const event = await eventForSlug(params.eventslug)
    if (!event) {
      if (preload) return { event: null }
      throw redirect({ to: '/event-not-found', search: location.search })
    }
    // the order belongs to the event; after a server render, src/app/start.tsx binds it once the
    // saved order is restored
    if (!preload && !import.meta.env.SSR) bindOrderToEvent(params.eventslug)
    return { event }
  },
  component: EventLayout,
})
