import type { OpsCampaign } from '../../../contract/ops/campaigns.ts'
import { type Problem, problem } from '../../../contract/problems.ts'
import { awaitsReview, mayCancel } from '../../../domain/campaign.ts'
import { adBillboards } from '../../catalogue/ad-reads.ts'
import type { Database, Queryable } from '../../platform/db/client.ts'
import type { Logger } from '../../platform/log.ts'
import { err, ok, type Result } from '../../platform/result.ts'
import { accountById } from '../accounts/repo.ts'
import { chargesOf } from '../billing/repo.ts'
import type { AdvertiserMails } from '../mails/accounts.ts'
import { type AirChanged, airTransactions } from '../on-air/changes.ts'
import { releasePlays, voidProposals } from '../proposals/repo.ts'
import type { AdService } from './ads.ts'
import { type CampaignService, cancelCampaign, stateConflict } from './campaigns.ts'
import {
  adContentByGuid,
  type CampaignRow,
  campaignById,
  campaignsIn,
  moveCampaign,
  stateHistory,
} from './repo.ts'

// Campaigns in the operators' console: the review queue's campaigns (Booked: their ad not yet seen
// by a person), approve (→ Approved: it may play), reject with a reason (→ Rejected: its plays freed,
// nothing charged, the advertiser mailed in their language), and the admins' list, where a campaign
// may be cancelled. Each change is one transaction on the campaign's row, from the state it was seen
// in: two reviewers deciding at once, one wins, the other is told it is not under review.

export type Operator = { id: string; email: string }

/** A campaign asked for by an operator, and why it is not there. */
type Found = Result<OpsCampaign, Problem<'campaign_not_found'>>
/** A reviewer's decision refused: no such campaign, or not waiting for review (any more). */
type Decided = Result<OpsCampaign, Problem<'campaign_not_found' | 'campaign_not_under_review'>>
/** An admin's cancel refused: no such campaign, or one that has already ended. */
type Cancelled<T> = Result<T, Problem<'campaign_not_found' | 'campaign_state_conflict'>>

export type ReviewService = ReturnType<typeof createReviewService>

export function createReviewService(deps: {
  /** Told once a change of what is on air committed (on-air/changes.ts). */
  airChanged: AirChanged
  database: Database
  now: () => number
  campaigns: CampaignService
  ads: AdService
  mails: AdvertiserMails
  /** Mails the advertiser that the ad is approved (completion.ts). */
  approved: (campaignId: string) => Promise<void>
  /** Reserves the plays a budget raised before approval buys (proposals.ts). */
  extend: (tx: Queryable, campaign: CampaignRow, budgetCents: number) => Promise<void>
  log: Logger
  /** Writes the operator's action to the audit log (auth/repo.ts recordAudit). */
  audit: (entry: {
    operator: Operator
    action: string
    detail: Record<string, unknown>
  }) => Promise<void>
}) {
  const { database: db, now } = deps
  const airTransaction = airTransactions(db, deps.airChanged)

  async function opsView(
    row: CampaignRow & { accountEmail?: string; company?: string },
  ): Promise<OpsCampaign> {
    const [campaign, history, charges, ad, account, billboards] = await Promise.all([
      deps.campaigns.view(row),
      stateHistory(db, row.campaignId),
      chargesOf(db, row.campaignId),
      row.contentGuid ? adContentByGuid(db, row.contentGuid) : Promise.resolve(null),
      row.accountEmail === undefined ? accountById(db, row.accountId) : Promise.resolve(null),
      adBillboards(db, row.deviceIds),
    ])
    // a billboard since removed from the catalogue keeps its id as its name
    const named = new Map(billboards.map((b) => [b.deviceId, b]))
    const shown = ad ? await deps.ads.adView(ad, row) : null
    return {
      ...campaign,
      accountId: row.accountId,
      accountEmail: row.accountEmail ?? account?.email ?? '',
      company: row.company ?? account?.company ?? '',
      bookedAtEpochMs: row.bookedAtEpochMs === null ? null : Math.round(row.bookedAtEpochMs),
      billboards: row.deviceIds.map((deviceId) => ({
        deviceId,
        location: named.get(deviceId)?.location ?? deviceId,
        city: named.get(deviceId)?.city ?? '',
        timeZoneId: named.get(deviceId)?.timeZoneId ?? 'UTC',
      })),
      ad:
        ad && shown
          ? {
              type: shown.type,
              url: shown.url,
              renditions: Object.entries(ad.renditions).map(([size, r]) => {
                const [w, h] = size.split('x').map(Number)
                return {
                  widthPx: w ?? 0,
                  heightPx: h ?? 0,
                  url: r.url,
                  flagged: r.flagged,
                  flagReasons: r.flagReasons,
                }
              }),
            }
          : null,
      charges: charges.map((h) => ({
        day: h.day,
        plays: Number(h.plays),
        amountCents: h.amountCents,
        currency: h.currency,
        status: h.status,
      })),
      history: history.map((h) => ({
        state: h.state,
        atEpochMs: Math.round(h.atEpochMs),
        actor: h.actor,
        reason: h.reason,
      })),
    }
  }

  async function found(campaignId: string): Promise<Found> {
    const row = await campaignById(db, campaignId)
    return row ? ok(await opsView(row)) : err(problem('campaign_not_found'))
  }

  return {
    /** The review queue's campaigns: booked, oldest booking first. */
    queue: async (): Promise<OpsCampaign[]> =>
      Promise.all((await campaignsIn(db, ['Booked'], 200)).map(opsView)),
    /** Every campaign, newest first (the admins' page). */
    all: async (): Promise<OpsCampaign[]> =>
      Promise.all((await campaignsIn(db, null, 500)).map(opsView)),
    get: found,

    async approve(campaignId: string, operator: Operator): Promise<Decided> {
      const row = await campaignById(db, campaignId)
      if (!row) return err(problem('campaign_not_found'))
      if (!awaitsReview(row.state)) return err(problem('campaign_not_under_review'))
      const moved = await airTransaction(async (tx) => {
        const approved = await moveCampaign(
          tx,
          campaignId,
          { from: ['Booked'], to: 'Approved', reviewedBy: operator.id },
          { actor: 'operator', operatorId: operator.id },
          now(),
        )
        // a budget raised while the campaign waited for review buys its plays now
        const campaign = approved ? await campaignById(tx, campaignId, { lock: true }) : null
        if (campaign) await deps.extend(tx, campaign, campaign.budgetCents)
        return approved
      })
      if (!moved) return err(problem('campaign_not_under_review'))
      await deps.audit({ operator, action: 'campaign_approve', detail: { campaignId } })
      await deps.approved(campaignId)
      return found(campaignId)
    },

    async reject(campaignId: string, operator: Operator, reason: string): Promise<Decided> {
      const row = await campaignById(db, campaignId)
      if (!row) return err(problem('campaign_not_found'))
      const moved = await airTransaction(async (tx) => {
        const nowMs = now()
        const ok = await moveCampaign(
          tx,
          campaignId,
          { from: ['Booked'], to: 'Rejected', rejectionReason: reason, reviewedBy: operator.id },
          { actor: 'operator', operatorId: operator.id, reason },
          nowMs,
        )
        // nothing was charged: every play it held is free again
        if (ok) await releasePlays(tx, campaignId, 0)
        return ok
      })
      if (!moved) return err(problem('campaign_not_under_review'))
      await deps.audit({ operator, action: 'campaign_reject', detail: { campaignId, reason } })
      const account = await accountById(db, row.accountId)
      if (account) await deps.mails.campaignRejected(account, row, reason)
      return found(campaignId)
    },

    /** An admin ends a campaign: the plays still to come freed; what was proven stays to be paid. */
    async cancel(
      campaignId: string,
      operator: Operator,
      reason: string,
    ): Promise<Cancelled<OpsCampaign>> {
      const outcome = await airTransaction(async (tx): Promise<Cancelled<null>> => {
        const row = await campaignById(tx, campaignId, { lock: true })
        if (!row) return err(problem('campaign_not_found'))
        if (!mayCancel(row.state)) return err(stateConflict(row.state))
        await cancelCampaign(tx, row, { actor: 'operator', operatorId: operator.id, reason }, now())
        await voidProposals(tx, campaignId)
        return ok(null)
      })
      if (!outcome.ok) return outcome
      await deps.audit({ operator, action: 'campaign_cancel', detail: { campaignId, reason } })
      deps.log.info('campaign cancelled by an operator', { campaignId })
      return found(campaignId)
    },
  }
}
