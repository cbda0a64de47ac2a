import { createFileRoute } from '@tanstack/react-router'
import { LocationPage } from '../../../../../features/location/location-page'
import { fetchDevices } from '../../../../../stores/devices'

// The billboards are loaded before the step renders (a failure shows its notice on the page): the
// first render then shows the list the server pre-rendered (src/server/platform/prerender.ts), not
// placeholders.
export const Route = createFileRoute('/_default/$eventslug/_steps/design/location')({
  loader: ({ params }) => fetchDevices(params.eventslug),
  component: LocationPage,
})
