import * as v from 'valibot'
import { CampaignSchema, CampaignStateSchema } from '../advertisers'
import { EmptyBodySchema, EpochMsSchema } from '../common'
import { endpoint } from '../endpoint'
import { CancelRequestSchema } from './orders'

// api-v1 "Operations", advertisers' campaigns in the console: the review queue's campaigns (booked,
// their ad not yet approved), approving or refusing an ad, and the admins' Campaigns page, where a
// campaign can be cancelled. Behind the operators' guard (session, role, Origin).

export const OpsCampaignSchema = v.object({
  ...CampaignSchema.entries,
  accountId: v.string(),
  accountEmail: v.string(),
  company: v.string(),
  bookedAtEpochMs: v.nullable(EpochMsSchema),
  /**
   * The campaign's billboards as the catalogue names them today (`deviceIds`' order), each with its
   * time zone (the console writes the flight on the first one's clock).
   */
  billboards: v.array(
    v.object({
      deviceId: v.string(),
      location: v.string(),
      city: v.string(),
      timeZoneId: v.optional(v.string(), 'UTC'),
    }),
  ),
  /** The ad: as uploaded, and at each billboard's size with what moderation found. */
  ad: v.nullable(
    v.object({
      type: v.nullable(v.picklist(['photo', 'video'])),
      url: v.nullable(v.string()),
      renditions: v.array(
        v.object({
          widthPx: v.number(),
          heightPx: v.number(),
          url: v.string(),
          flagged: v.boolean(),
          flagReasons: v.array(v.string()),
        }),
      ),
    }),
  ),
  /** The daily charges of its proven plays, by billboard-local day (pending, charged or failed). */
  charges: v.array(
    v.object({
      day: v.string(),
      plays: v.number(),
      amountCents: v.number(),
      currency: v.string(),
      status: v.picklist(['pending', 'charged', 'failed']),
    }),
  ),
  history: v.array(
    v.object({
      state: CampaignStateSchema,
      atEpochMs: EpochMsSchema,
      actor: v.string(),
      reason: v.nullable(v.string()),
    }),
  ),
})
export type OpsCampaign = v.InferOutput<typeof OpsCampaignSchema>

export const OpsCampaignsSchema = v.object({ campaigns: v.array(OpsCampaignSchema) })
export type OpsCampaigns = v.InferOutput<typeof OpsCampaignsSchema>

const guarded = ['sign_in_required', 'role_forbidden', 'cross_origin'] as const

export const opsCampaigns = {
  reviewCampaigns: endpoint({
    name: 'opsReviewCampaigns',
    method: 'GET',
    path: '/ops/review/campaigns',
    summary: 'Campaigns booked and waiting for their ad to be reviewed, oldest booking first',
    access: 'reviewer',
    response: OpsCampaignsSchema,
    errors: guarded,
  }),
  campaigns: endpoint({
    name: 'opsCampaigns',
    method: 'GET',
    path: '/ops/campaigns',
    summary: "Every advertiser's campaigns, newest first (admins)",
    access: 'admin',
    response: OpsCampaignsSchema,
    errors: guarded,
  }),
  campaign: endpoint({
    name: 'opsCampaign',
    method: 'GET',
    path: '/ops/campaigns/{campaignId}',
    summary: 'One campaign as operators see it',
    access: 'reviewer',
    response: OpsCampaignSchema,
    errors: [...guarded, 'campaign_not_found'],
  }),
  approveCampaign: endpoint({
    name: 'opsApproveCampaign',
    method: 'POST',
    path: '/ops/campaigns/{campaignId}/approve',
    summary: 'Booked → Approved: the ad may play',
    access: 'reviewer',
    body: EmptyBodySchema,
    response: OpsCampaignSchema,
    errors: [...guarded, 'campaign_not_found', 'campaign_not_under_review'],
  }),
  rejectCampaign: endpoint({
    name: 'opsRejectCampaign',
    method: 'POST',
    path: '/ops/campaigns/{campaignId}/reject',
    summary:
      'Booked → Rejected with a reason: its plays freed, nothing charged, the advertiser mailed in their language',
    access: 'reviewer',
    body: CancelRequestSchema,
    response: OpsCampaignSchema,
    errors: [...guarded, 'campaign_not_found', 'campaign_not_under_review'],
  }),
  cancelCampaign: endpoint({
    name: 'opsCancelCampaign',
    method: 'POST',
    path: '/ops/campaigns/{campaignId}/cancel',
    summary: 'Cancels a campaign (admins): its plays still to come freed, only proven plays paid',
    access: 'admin',
    body: CancelRequestSchema,
    response: OpsCampaignSchema,
    errors: [...guarded, 'campaign_not_found', 'campaign_state_conflict'],
  }),
} as const
