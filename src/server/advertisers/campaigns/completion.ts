import { completionReason } from '../../../domain/campaign-completion.ts'
import { adBillboards } from '../../catalogue/ad-reads.ts'
import type { MailAttachment as Attachment } from '../../mail/service.ts'
import type { Database, Queryable } from '../../platform/db/client.ts'
import { sql } from '../../platform/db/sql.ts'
import type { Logger } from '../../platform/log.ts'
import { accountById } from '../accounts/repo.ts'
import { campaignsOnAir, chargedDayLines } from '../billing/repo.ts'
import { AD_PLAYS } from '../columns.ts'
import type { CampaignMails, MailBillboard } from '../mails/campaigns.ts'
import { type AirChanged, airTransactions } from '../on-air/changes.ts'
import { playsOf, releasePlays } from '../proposals/repo.ts'
import { campaignById, moveCampaign } from './repo.ts'

// A campaign's life after its booking, as its advertiser hears of it: the mails of each step
// (mails/campaigns.ts), and the end of a campaign on air (src/domain/campaign-completion.ts), run
// after each daily settlement: Approved or Live → Completed once its flight's last day is settled,
// or as soon as its budget cannot pay another play (its plays still to come then freed). The move
// is one transaction from the state it was seen in, so two runs complete it once; each mail has its
// own key, so it is sent once whatever the retries.

export type CampaignNews = ReturnType<typeof createCampaignNews>

export function createCampaignNews(deps: {
  /** Told once a change of what is on air committed (on-air/changes.ts). */
  airChanged: AirChanged
  database: Database
  now: () => number
  mails: CampaignMails
  /** A charge's invoice as a PDF to attach to its receipt (invoices.ts). */
  invoiceOf: (chargeKey: string) => Promise<Attachment | null>
  log: Logger
}) {
  const db = deps.database
  const airTransaction = airTransactions(db, deps.airChanged)

  async function billboardsOf(q: Queryable, deviceIds: readonly string[]) {
    const found = await adBillboards(q, deviceIds)
    return new Map<string, MailBillboard>(
      found.map((b) => [
        b.deviceId,
        { deviceId: b.deviceId, location: b.location, city: b.city, timeZoneId: b.timeZoneId },
      ]),
    )
  }
  const unknown = (deviceId: string): MailBillboard => ({
    deviceId,
    location: deviceId,
    city: '',
    timeZoneId: 'UTC',
  })

  /** The campaign and its advertiser, or null (deleted meanwhile). */
  async function recipientOf(campaignId: string) {
    const campaign = await campaignById(db, campaignId)
    const account = campaign ? await accountById(db, campaign.accountId) : null
    return campaign && account ? { campaign, account } : null
  }

  async function withBillboards(campaignId: string) {
    const found = await recipientOf(campaignId)
    if (!found) return null
    const named = await billboardsOf(db, found.campaign.deviceIds)
    return {
      ...found,
      billboards: found.campaign.deviceIds.map((id) => named.get(id) ?? unknown(id)),
    }
  }

  /** Completes one campaign if it is over now; the completed mail once it moved. */
  async function completeIfOver(
    facts: Awaited<ReturnType<typeof campaignsOnAir>>[number],
    zones: ReadonlyMap<string, string>,
  ): Promise<boolean> {
    const nowMs = deps.now()
    const zonesOf = (deviceIds: readonly string[]) => deviceIds.map((id) => zones.get(id) ?? 'UTC')
    // most campaigns on air go on: only those over as read are locked and read again
    if (!completionReason({ ...facts, zones: zonesOf(facts.deviceIds) }, nowMs)) return false
    const moved = await airTransaction(async (tx) => {
      const row = await campaignById(tx, facts.campaignId, { lock: true })
      if (!row) return null
      const reason = completionReason(
        {
          ...facts,
          state: row.state,
          endEpochMs: row.endEpochMs,
          budgetCents: row.budgetCents,
          zones: zonesOf(row.deviceIds),
        },
        nowMs,
      )
      if (!reason) return null
      const ok = await moveCampaign(
        tx,
        row.campaignId,
        { from: ['Approved', 'Live'], to: 'Completed', completedReason: reason },
        { actor: 'system', reason },
        nowMs,
      )
      if (!ok) return null
      // what is left of the budget pays no more play: the time still held is free again
      if (reason === 'budget_spent') await releasePlays(tx, row.campaignId, nowMs)
      return reason
    })
    if (!moved) return false
    const found = await recipientOf(facts.campaignId)
    if (found) {
      const plays = await playsOf(db, facts.campaignId)
      const proven = plays.filter((p) => p.proven)
      await deps.mails.completed(found.account, found.campaign, moved, {
        provenPlays: proven.length,
        impressions: proven.reduce((n, p) => n + Number(p.impressions), 0),
        spentCents: Math.min(facts.provenCents, found.campaign.budgetCents),
      })
    }
    deps.log.info('campaign completed', { campaignId: facts.campaignId, reason: moved })
    return true
  }

  return {
    async booked(campaignId: string): Promise<void> {
      const found = await withBillboards(campaignId)
      if (found) await deps.mails.booked(found.account, found.campaign, found.billboards)
    },

    async approved(campaignId: string): Promise<void> {
      const found = await withBillboards(campaignId)
      if (found) await deps.mails.approved(found.account, found.campaign, found.billboards)
    },

    /** The campaign went Live: its first proven play, where and when. */
    async live(campaignId: string): Promise<void> {
      const found = await recipientOf(campaignId)
      if (!found) return
      const [first] = await db.query(sql<{ deviceId: string; provenAtEpochMs: number }>`
        select ${AD_PLAYS.select({ fields: ['deviceId', 'provenAtEpochMs'] })} from ad_plays
        where campaign_id = ${campaignId} and proven_at_epoch_ms is not null
        order by proven_at_epoch_ms limit 1`)
      if (!first) return
      const named = await billboardsOf(db, [first.deviceId])
      await deps.mails.live(found.account, found.campaign, {
        billboard: named.get(first.deviceId) ?? unknown(first.deviceId),
        atEpochMs: first.provenAtEpochMs,
      })
    },

    /** A day's charge went through: its receipt, billboard by billboard. */
    async receipt(charge: {
      campaignId: string
      day: string
      key: string
      amountCents: number
    }): Promise<void> {
      const found = await recipientOf(charge.campaignId)
      if (!found) return
      const lines = await chargedDayLines(db, charge.campaignId, charge.day)
      const named = await billboardsOf(
        db,
        lines.map((l) => l.deviceId),
      )
      await deps.mails.receipt(
        found.account,
        found.campaign,
        {
          ...charge,
          lines: lines.map((l) => ({
            ...l,
            costCents: Number(l.costCents),
            billboard: named.get(l.deviceId) ?? unknown(l.deviceId),
          })),
        },
        await deps.invoiceOf(charge.key),
      )
    },

    /** One pass over the campaigns on air: each one over is completed (and mailed) once. */
    async completeOver(signal?: AbortSignal): Promise<number> {
      let completed = 0
      let after = ''
      for (;;) {
        const page = await campaignsOnAir(db, after, 200)
        const zones = new Map(
          (await adBillboards(db, [...new Set(page.flatMap((c) => c.deviceIds))])).map((b) => [
            b.deviceId,
            b.timeZoneId,
          ]),
        )
        for (const facts of page) {
          if (signal?.aborted) return completed
          if (await completeIfOver(facts, zones)) completed++
        }
        if (page.length < 200) return completed
        after = (page[page.length - 1] as { campaignId: string }).campaignId
      }
    },
  }
}
