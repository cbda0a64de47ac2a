import { createFileRoute } from '@tanstack/react-router'
import { LocationPage } from '../../../../../features/location/location-page'
import { devicesForEvent } from '../../../../../stores/devices'

// The billboards are loaded before the step renders (a failure shows its notice on the page), on the
// server for a first visit: the page paints with its list, never with placeholders.
export const Route = createFileRoute('/_default/$eventslug/_steps/design/location')({
  loader: async ({ params }) => ({ devices: await devicesForEvent(params.eventslug) }),
  component: LocationPage,
})
