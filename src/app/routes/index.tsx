import { createFileRoute } from '@tanstack/react-router'
import { HomePage } from '../features/home/home-page'
import { loadLiveEvents } from '../stores/event'

// spec §2: the home page, home layout (content only, no header). Its live events are loaded before it
// renders (on the server for a first visit), so the list does not push the event-code form
// down when it arrives (layout shift).
export const Route = createFileRoute('/')({
  loader: async ({ abortController }) => ({
    events: await loadLiveEvents(abortController.signal),
  }),
  component: HomePage,
})
