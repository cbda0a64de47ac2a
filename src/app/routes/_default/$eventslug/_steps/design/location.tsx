import { createFileRoute } from '@tanstack/react-router'
import { LocationPage } from '../../../../../features/location/location-page'

export const Route = createFileRoute('/_default/$eventslug/_steps/design/location')({
  component: LocationPage,
})
