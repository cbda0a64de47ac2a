import { createFileRoute } from '@tanstack/react-router'
import { NewCampaignPage } from '../../../features/advertisers/new-campaign-page'
import { AdvertiserPageError } from '../../../features/advertisers/page-error'

// `/campaigns/new`: the loader asks the billboards for the draft's dates; the page asks again when
// the dates change.
export const Route = createFileRoute('/_default/_advertiser/campaigns/new')({
  loader: async ({ abortController }) =>
    (await import('../../../features/advertisers/advertiser-loaders')).newCampaignLoader(
      abortController.signal,
    ),
  // never on a hover: without a session its call would send the browser to sign in
  preload: false,
  // its loader refused: the problem, and the way back to the campaigns
  errorComponent: AdvertiserPageError,
  component: NewCampaignPage,
})
