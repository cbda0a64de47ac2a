import { createFileRoute } from '@tanstack/react-router'
import { CampaignPage } from '../../../features/advertisers/campaign-page'
import { AdvertiserPageError } from '../../../features/advertisers/page-error'

// `/campaigns/{id}`: the loader reads the campaign and its ad; the page keeps them as its actions
// change them.
export const Route = createFileRoute('/_default/_advertiser/campaigns/$campaignId')({
  loader: async ({ params, abortController }) =>
    (await import('../../../features/advertisers/advertiser-loaders')).campaignLoader(
      params.campaignId,
      abortController.signal,
    ),
  // never on a hover: without a session its call would send the browser to sign in
  preload: false,
  // its loader refused: the problem, and the way back to the campaigns
  errorComponent: AdvertiserPageError,
  component: CampaignPage,
})
