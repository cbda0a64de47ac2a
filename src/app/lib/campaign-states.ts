import type { MessageDescriptor } from '@lingui/core'
import { msg } from '@lingui/core/macro'
import type { CampaignState } from '../../domain/campaign'

// A campaign's state as the advertiser's pages and the console name it, in each language (the
// shop's catalog and the console's both extract this file: lingui.config.ts).

export const CAMPAIGN_STATE_LABELS: Record<CampaignState, MessageDescriptor> = {
  Draft: msg`Draft`,
  Proposed: msg`Proposed`,
  Booked: msg`Booked`,
  Approved: msg`Approved`,
  Live: msg`Live`,
  Paused: msg`Paused`,
  Completed: msg`Completed`,
  Rejected: msg`Rejected`,
  Cancelled: msg`Cancelled`,
}
