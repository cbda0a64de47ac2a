import { cappedCharge, dailyChargeKey, daysToCharge } from '../../../domain/ad-settlement.ts'
import { formatMoney } from '../../../domain/money.ts'
import { adBillboards } from '../../catalogue/ad-reads.ts'
import type { PaymentService } from '../../payment/service.ts'
import type { Database, Queryable } from '../../platform/db/client.ts'
import type { Logger } from '../../platform/log.ts'
import { accountById } from '../accounts/repo.ts'
import { campaignById, moveCampaign } from '../campaigns/repo.ts'
import type { AdvertiserMails } from '../mails/accounts.ts'
import { type AirChanged, airTransactions } from '../on-air/changes.ts'
import {
  addCharge,
  type ChargeRow,
  campaignsToSettle,
  chargedCents,
  customerOf,
  markReceiptQueued,
  pendingCharges,
  receiptsDue,
  settleCharge,
  unchargedPlays,
} from './repo.ts'

// The daily charge of proven plays (the `ad-settlement` job; rules in src/domain/ad-settlement.ts).
// Two steps, so a crash between them loses nothing and charges nothing twice: under the campaign's
// lock, each finished day's proven plays become one pending charge, its amount capped so the sum of
// the campaign's charges never exceeds its budget; then each pending charge goes to the payment
// provider under its idempotency key (campaign and day), and is marked charged or failed. A charge
// repeated after a crash is answered by the provider as the first one. A declined card pauses the
// campaign and mails the advertiser; a provider that cannot be reached leaves the charge pending for
// the next run.

export type Settlement = ReturnType<typeof createSettlement>

export function createSettlement(deps: {
  /** Told once a change of what is on air committed (on-air/changes.ts). */
  airChanged: AirChanged
  database: Database
  now: () => number
  payment: PaymentService
  mails: AdvertiserMails
  /** The day's receipt to the advertiser once its charge went through (campaigns/completion.ts). */
  receipt: (charge: ChargeRow) => Promise<void>
  /** The charge's invoice, issued in the transaction that marks it charged (invoices.ts). */
  invoice: (tx: Queryable, charge: ChargeRow) => Promise<unknown>
  log: Logger
}) {
  const db = deps.database
  const airTransaction = airTransactions(db, deps.airChanged)

  /** Makes the pending charges of the campaign's finished days. */
  async function closeDays(campaignId: string): Promise<void> {
    await db.transaction(async (tx) => {
      const campaign = await campaignById(tx, campaignId, { lock: true })
      if (!campaign) return
      const plays = await unchargedPlays(tx, campaignId)
      if (plays.length === 0) return
      const zones = new Map(
        (await adBillboards(tx, [...new Set(plays.map((p) => p.deviceId))])).map((b) => [
          b.deviceId,
          b.timeZoneId,
        ]),
      )
      const zoneOf = (deviceId: string) => zones.get(deviceId) ?? 'UTC'
      const nowMs = deps.now()
      let charged = await chargedCents(tx, campaignId)
      for (const day of daysToCharge(plays, zoneOf, nowMs)) {
        const amountCents = cappedCharge(day.amountCents, campaign.budgetCents, charged)
        await addCharge(
          tx,
          {
            campaignId,
            day: day.day,
            key: dailyChargeKey(campaignId, day.day),
            plays: day.plays.length,
            amountCents,
            currency: campaign.currency,
          },
          day.plays,
          nowMs,
        )
        charged += amountCents
      }
    })
  }

  /** Sends one pending charge to the provider and records its outcome. */
  async function collect(charge: ChargeRow): Promise<void> {
    const campaign = await campaignById(db, charge.campaignId)
    if (!campaign) return
    if (charge.amountCents === 0) {
      await settleCharge(db, charge, { charged: true, paymentId: 'none' }, deps.now())
      return
    }
    const customerId = await customerOf(db, charge.campaignId)
    const card =
      campaign.checkoutSecretKey && customerId
        ? await deps.payment.cardForCheckout(campaign.checkoutSecretKey, customerId, false)
        : null
    if (!card?.ok) {
      deps.log.warn('a campaign has no card to charge', { campaignId: charge.campaignId })
      await failed(charge, { code: 'campaign_card_missing' })
      return
    }
    const result = await deps.payment.charge({
      orderGuid: charge.key,
      amountCents: charge.amountCents,
      currency: charge.currency,
      setup: card.value,
      description: `Campaign ${campaign.name}, ${charge.day}`,
    })
    if (result.ok) {
      // the invoice is numbered in the settling transaction, so a crash leaves no charge without
      // it; its receipt (with the invoice's PDF) is sent by the `campaign-receipts` job
      await db.transaction(async (tx) => {
        const outcome = { charged: true as const, paymentId: result.paymentId }
        if (await settleCharge(tx, charge, outcome, deps.now())) await deps.invoice(tx, charge)
      })
    } else if (result.paymentId === null && result.problem.code === 'unknown_error') {
      // the provider could not be reached: the same key is tried again next run
      deps.log.warn('a campaign charge is left for the next run', { campaignId: charge.campaignId })
    } else {
      await failed(charge, result.problem)
    }
  }

  async function failed(charge: ChargeRow, problem: unknown): Promise<void> {
    const nowMs = deps.now()
    const campaign = await airTransaction(async (tx) => {
      if (!(await settleCharge(tx, charge, { charged: false, error: problem }, nowMs))) return null
      const row = await campaignById(tx, charge.campaignId, { lock: true })
      if (row && (row.state === 'Approved' || row.state === 'Live')) {
        await moveCampaign(
          tx,
          row.campaignId,
          { from: [row.state], to: 'Paused', resumeState: row.state },
          { actor: 'system', reason: 'charge_failed' },
          nowMs,
        )
      }
      return row
    })
    if (!campaign) return
    const account = await accountById(db, campaign.accountId)
    if (account) {
      await deps.mails.chargeFailed(account, campaign, {
        day: charge.day,
        key: charge.key,
        amount: formatMoney(charge.amountCents, {
          currency: charge.currency,
          locale: account.locale,
        }),
      })
    }
  }

  /** One run of the job: every campaign's finished days charged, a page of campaigns at a time. */
  async function settle(signal?: AbortSignal): Promise<number> {
    let settled = 0
    let after = ''
    for (;;) {
      const page = await campaignsToSettle(db, after, 100)
      for (const campaignId of page) {
        if (signal?.aborted) return settled
        await closeDays(campaignId)
        for (const charge of await pendingCharges(db, campaignId)) {
          if (signal?.aborted) return settled
          await collect(charge)
          settled++
        }
      }
      if (page.length < 100) return settled
      after = page[page.length - 1] as string
    }
  }

  /**
   * One run of the `campaign-receipts` job: each charged day's receipt added to the outbox, with
   * its invoice's PDF, and marked; a crash between the two adds nothing twice (the mail's key is
   * the charge's).
   */
  async function sendReceipts(signal?: AbortSignal): Promise<number> {
    let sent = 0
    for (;;) {
      const due = await receiptsDue(db, 50)
      for (const charge of due) {
        if (signal?.aborted) return sent
        await deps.receipt(charge)
        await markReceiptQueued(db, charge, deps.now())
        sent++
      }
      if (due.length < 50) return sent
    }
  }

  return { settle, collect, sendReceipts }
}
