import {
  type AdContent,
  advertisers,
  type Campaign,
  type Proposal,
} from '../../../contract/advertisers'
import { callApi } from '../../lib/api'
import { draftStore, fromLocalInput } from './draft'
import { callAsAdvertiser } from './session'

// The loaders of the advertisers' signed-in pages (routes/_default/_advertiser/): what each page
// shows first, read before it is drawn. The routes import this module when they load, so it comes
// with the advertisers' chunks, never with the shop's first screen.

/** `/campaigns`: the account's campaigns, newest first. */
export async function campaignsLoader(signal: AbortSignal): Promise<Campaign[]> {
  return (await callAsAdvertiser(advertisers.campaigns, { signal })).campaigns
}

/** `/campaigns/{id}`: the campaign and its ad (null before one is uploaded). */
export async function campaignLoader(
  campaignId: string,
  signal: AbortSignal,
): Promise<{ campaign: Campaign; ad: AdContent | null }> {
  const campaign = await callAsAdvertiser(advertisers.campaign, { params: { campaignId }, signal })
  const ad = campaign.contentGuid
    ? await callAsAdvertiser(advertisers.content, {
        params: { contentGuid: campaign.contentGuid },
        signal,
      })
    : null
  return { campaign, ad }
}

/** `/campaigns/new`: the billboards sold to advertisers, with what is free at the draft's dates. */
export async function newCampaignLoader(signal: AbortSignal) {
  const from = fromLocalInput(draftStore.draft.start)
  const to = fromLocalInput(draftStore.draft.end)
  const window = from !== null && to !== null && to > from ? { from, to } : null
  return callAsAdvertiser(advertisers.inventory, {
    query: window ? { fromEpochMs: window.from, toEpochMs: window.to } : {},
    signal,
  })
}

/** `/proposal/{guid}`: the proposal, readable by anyone with its link. */
export function proposalLoader(proposalGuid: string, signal: AbortSignal): Promise<Proposal> {
  return callApi(advertisers.proposal, { params: { proposalGuid }, signal })
}
