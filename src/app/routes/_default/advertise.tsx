import { createFileRoute } from '@tanstack/react-router'
import { AdvertisePage } from '../../features/advertisers/advertise-page'

// The advertisers' public door, a chunk of its own like their other pages: the shop's first screen
// carries only its route entry.
export const Route = createFileRoute('/_default/advertise')({
  component: AdvertisePage,
})
