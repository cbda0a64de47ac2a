import { createFileRoute } from '@tanstack/react-router'
import { HomePage } from '../features/home/home-page'
import { loadLiveEvents } from '../stores/event'

// spec §2: the home page, home layout (content only, no header). Its live events are loaded before it
// renders, so the list does not push the event-code form down when it arrives (layout shift).
export const Route = createFileRoute('/')({
  loader: ({ abortController }) => loadLiveEvents(abortController.signal),
  component: HomePage,
})
