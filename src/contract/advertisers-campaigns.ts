import * as v from 'valibot'
import { CAMPAIGN_STATES, DAYPARTS, PAUSE_REASONS } from '../domain/campaign'
import { COMPLETION_REASONS } from '../domain/campaign-completion'
import {
  CurrencySchema,
  EpochMsSchema,
  issue,
  nonNegativeInt,
  ProblemSchema,
  positiveInt,
  queryNumber,
  text,
  unique,
} from './common'

// api-v1 "Advertisers", the campaigns' part: inventory, campaigns, their ads, proposals, acceptance
// and reports. The endpoints are in ./advertisers.ts, with the accounts' schemas.

const MAX_EPOCH_MS = 8_640_000_000_000_000

export const InventoryQuerySchema = v.object({
  fromEpochMs: v.optional(queryNumber(0, MAX_EPOCH_MS)),
  toEpochMs: v.optional(queryNumber(0, MAX_EPOCH_MS)),
})

export const InventoryLineSchema = v.object({
  deviceId: v.string(),
  location: v.string(),
  city: v.string(),
  country: v.string(),
  timeZoneId: v.string(),
  coordinates: v.object({ lat: v.number(), lng: v.number() }),
  imageUrl: v.string(),
  contentWidth: v.number(),
  contentHeight: v.number(),
  impressionsPerPlay: v.number(),
  adCpmCents: v.number(),
  currency: v.string(),
  costCentsPerPlay: v.number(),
  /** Ad plays still to sell in the window (every daypart). */
  freePlays: v.number(),
})
export type InventoryLine = v.InferOutput<typeof InventoryLineSchema>

export const InventorySchema = v.object({
  fromEpochMs: EpochMsSchema,
  toEpochMs: EpochMsSchema,
  billboards: v.array(InventoryLineSchema),
})

export const DaypartSchema = v.picklist(DAYPARTS)
export type Daypart = v.InferOutput<typeof DaypartSchema>
export const CampaignStateSchema = v.picklist(CAMPAIGN_STATES)

const draftEntries = {
  name: text(100),
  budgetCents: v.pipe(positiveInt(), v.maxValue(100_000_000_000)),
  currency: CurrencySchema,
  startEpochMs: EpochMsSchema,
  endEpochMs: EpochMsSchema,
  deviceIds: v.pipe(
    v.array(text(100)),
    v.minLength(1, issue('field_required')),
    v.maxLength(50),
    v.check(unique, issue('billboard_listed_twice')),
  ),
  dayparts: v.pipe(
    v.array(DaypartSchema),
    v.minLength(1, issue('field_required')),
    v.check(unique, issue('field_invalid', { detail: 'a daypart is listed twice' })),
  ),
}

export const CampaignDraftSchema = v.strictObject(draftEntries)
export type CampaignDraft = v.InferOutput<typeof CampaignDraftSchema>

export const CampaignPatchSchema = v.strictObject({
  name: v.optional(draftEntries.name),
  budgetCents: v.optional(draftEntries.budgetCents),
  currency: v.optional(draftEntries.currency),
  startEpochMs: v.optional(draftEntries.startEpochMs),
  endEpochMs: v.optional(draftEntries.endEpochMs),
  deviceIds: v.optional(draftEntries.deviceIds),
  dayparts: v.optional(draftEntries.dayparts),
})
export type CampaignPatch = v.InferOutput<typeof CampaignPatchSchema>

/** A billboard as people name it: its place and city, and its clock. */
export const NamedBillboardSchema = v.object({
  deviceId: v.string(),
  location: v.string(),
  city: v.string(),
  timeZoneId: v.string(),
})
export type NamedBillboard = v.InferOutput<typeof NamedBillboardSchema>

export const CampaignSchema = v.object({
  campaignId: v.string(),
  name: v.string(),
  budgetCents: v.number(),
  currency: v.string(),
  startEpochMs: EpochMsSchema,
  endEpochMs: EpochMsSchema,
  deviceIds: v.array(v.string()),
  dayparts: v.array(DaypartSchema),
  state: CampaignStateSchema,
  spentCents: nonNegativeInt(),
  /** What the plays still to come cost (reserved, not yet proven). */
  committedCents: nonNegativeInt(),
  contentGuid: v.nullable(v.string()),
  rejectionReason: v.nullable(v.string()),
  /** The open proposal, if any (Proposed). */
  proposalGuid: v.optional(v.nullable(v.string())),
  scheduledPlays: v.optional(nonNegativeInt()),
  provenPlays: v.optional(nonNegativeInt()),
  /** Why it was completed (Completed): its flight ended, or its budget was spent. */
  completedReason: v.optional(v.nullable(v.picklist(COMPLETION_REASONS))),
  /** Why it is paused (Paused): by its advertiser, or by the shop when the card was declined. */
  pausedReason: v.optional(v.nullable(v.picklist(PAUSE_REASONS))),
  /** Its billboards as the catalogue names them today, in `deviceIds`' order. */
  billboards: v.optional(v.array(NamedBillboardSchema), []),
})
export type Campaign = v.InferOutput<typeof CampaignSchema>

export const AD_CONTENT_STATUSES = ['processing', 'ready', 'failed'] as const
export const AdContentSchema = v.object({
  contentGuid: v.string(),
  status: v.picklist(AD_CONTENT_STATUSES),
  type: v.nullable(v.picklist(['photo', 'video'])),
  url: v.nullable(v.string()),
  error: v.nullable(v.string()),
  /** The problems `error` says in English (the advertiser's page says them in its language). */
  problems: v.optional(v.array(ProblemSchema)),
  /** The ad at each billboard's size, once made. */
  renditions: v.optional(
    v.array(
      v.object({
        widthPx: v.number(),
        heightPx: v.number(),
        url: v.string(),
        flagged: v.boolean(),
      }),
    ),
  ),
})
export type AdContent = v.InferOutput<typeof AdContentSchema>

export const ProposalLineSchema = v.object({
  deviceId: v.string(),
  /** The billboard's name in the catalogue (its id when the catalogue no longer lists it). */
  location: v.optional(v.string()),
  plays: v.number(),
  impressions: v.number(),
  costCents: v.number(),
})
export const ProposalSchema = v.object({
  proposalGuid: v.string(),
  campaignId: v.string(),
  campaignName: v.optional(v.string()),
  validUntilEpochMs: EpochMsSchema,
  currency: v.string(),
  lines: v.array(ProposalLineSchema),
  totalPlays: v.number(),
  totalImpressions: v.number(),
  totalCents: v.number(),
  /** open (may be accepted), accepted, void (replaced, or its campaign changed). */
  status: v.optional(v.picklist(['open', 'accepted', 'void'])),
  startEpochMs: v.optional(EpochMsSchema),
  endEpochMs: v.optional(EpochMsSchema),
  dayparts: v.optional(v.array(DaypartSchema)),
})
export type Proposal = v.InferOutput<typeof ProposalSchema>

export const AcceptRequestSchema = v.strictObject({
  customerId: text(200),
  checkoutSecretKey: text(200),
})

export const ReportRowSchema = v.object({
  day: v.string(),
  deviceId: v.string(),
  scheduledPlays: v.number(),
  provenPlays: v.number(),
  impressions: v.number(),
  spentCents: v.number(),
})
export const ReportSchema = v.object({
  campaignId: v.string(),
  currency: v.string(),
  rows: v.array(ReportRowSchema),
  /** The campaign's billboards as the catalogue names them today, in the campaign's order. */
  billboards: v.optional(v.array(NamedBillboardSchema), []),
  totals: v.object({
    scheduledPlays: v.number(),
    provenPlays: v.number(),
    impressions: v.number(),
    spentCents: v.number(),
  }),
})
export type Report = v.InferOutput<typeof ReportSchema>

/** The plays a campaign holds that have not begun yet, soonest first (at most `NEXT_PLAYS_SHOWN`). */
export const NEXT_PLAYS_SHOWN = 20
export const NextPlaysSchema = v.object({
  campaignId: v.string(),
  plays: v.array(
    v.object({
      deviceId: v.string(),
      /** The billboard's name in the catalogue (its id when the catalogue no longer lists it). */
      location: v.string(),
      /** Its city, which names its clock ("Paris time"). */
      city: v.optional(v.string(), ''),
      /** The billboard's time zone: its local time is the play's time as the advertiser reads it. */
      timeZoneId: v.string(),
      startEpochMs: EpochMsSchema,
    }),
  ),
})
export type NextPlays = v.InferOutput<typeof NextPlaysSchema>

export const ReportQuerySchema = v.object({
  format: v.optional(v.picklist(['json', 'csv']), 'json'),
})
