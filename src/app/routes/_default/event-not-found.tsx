import { createFileRoute } from '@tanstack/react-router'
import { EventNotFoundPage } from '../../features/home/event-not-found'

export const Route = createFileRoute('/_default/event-not-found')({
  component: EventNotFoundPage,
})
