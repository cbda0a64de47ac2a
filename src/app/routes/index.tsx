import { createFileRoute } from '@tanstack/react-router'
import { eventDays } from '../features/home/event-days'
import { HomePage } from '../features/home/home-page'
import { loadLiveEvents } from '../stores/event'

// spec §2: the home page, home layout (content only, no header). Its live events are loaded before it
// renders (on the server for a first visit), so the list does not push the event-code form
// down when it arrives (layout shift). Their days are formatted with them (features/home/event-days.ts).
export const Route = createFileRoute('/')({
  loader: async ({ abortController, context }) => {
    const events = await loadLiveEvents(abortController.signal)
    return { events, days: eventDays(events, context.i18n.locale) }
  },
  component: HomePage,
})
