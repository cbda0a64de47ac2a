import { createFileRoute } from '@tanstack/react-router'
import { ShoutLocationPage } from '../../../features/location/shout-location-page'

export const Route = createFileRoute('/_default/$eventslug/shout-location')({
  component: ShoutLocationPage,
})
