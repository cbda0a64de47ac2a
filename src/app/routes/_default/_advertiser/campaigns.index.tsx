import { createFileRoute } from '@tanstack/react-router'
import { CampaignsPage } from '../../../features/advertisers/campaigns-page'
import { AdvertiserPageError } from '../../../features/advertisers/page-error'

// `/campaigns`: the account's campaigns. The loader's code comes with the page's (a chunk of the
// advertisers'), never with the shop's first screen.
export const Route = createFileRoute('/_default/_advertiser/campaigns/')({
  loader: async ({ abortController }) =>
    (await import('../../../features/advertisers/advertiser-loaders')).campaignsLoader(
      abortController.signal,
    ),
  // never on a hover: without a session its call would send the browser to sign in
  preload: false,
  // its loader refused: the problem, and the way back to the campaigns
  errorComponent: AdvertiserPageError,
  component: CampaignsPage,
})
