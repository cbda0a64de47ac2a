import type { PasswordWork } from '../auth/passwords.ts'
import type { ContentService } from '../content/service.ts'
import type { MailService } from '../mail/service.ts'
import type { PaymentService } from '../payment/service.ts'
import type { Database, Queryable } from '../platform/db/client.ts'
import type { Seller } from '../platform/env-seller.ts'
import type { Logger } from '../platform/log.ts'
import type { RateLimiter } from '../platform/rate-limit.ts'
import { createAccountService } from './accounts/accounts.ts'
import { createAccessTokens } from './accounts/tokens.ts'
import { createCardReplacement } from './billing/card.ts'
import { createSettlement } from './billing/settlement.ts'
import { createAdService } from './campaigns/ads.ts'
import { type CampaignService, createCampaignService } from './campaigns/campaigns.ts'
import { createCampaignNews } from './campaigns/completion.ts'
import { createReviewService, type Operator } from './campaigns/review.ts'
import { createInvoices } from './invoices/invoices.ts'
import { createAdvertiserMails } from './mails/accounts.ts'
import { createCampaignMails } from './mails/campaigns.ts'
import type { AirChanged } from './on-air/changes.ts'
import { createBillboardsForSale } from './proposals/for-sale.ts'
import { createPacing } from './proposals/pacing.ts'
import { createProposalService } from './proposals/proposals.ts'
import { adPlaysOnBillboard, adRevenueByDay } from './reads.ts'
import { createTeamService } from './team/team.ts'

// The advertisers' module (api-v1 "Advertisers", docs/decisions/023, docs/advertisers.md), in
// sub-folders by subdomain, each with its own repo.ts: accounts and sessions (accounts/, guard.ts),
// the team of an account (team/), campaigns, their ads, the console's review, reports and the end of
// a campaign (campaigns/), proposals, the plays they reserve and the catch-up of missed plays
// (proposals/), the daily charge of proven plays and a card replaced (billing/), invoices (invoices/)
// and the mails (mails/). It owns the tables of migrations 0015 and 0024; it reads the catalogue
// through catalogue/ad-reads.ts and uses the content, payment and mail services.

export type AdvertisersService = ReturnType<typeof createAdvertisersService>

/** What the console reads of campaigns: their plays on a billboard, the money their charges took. */
export type AdvertisersReads = Pick<AdvertisersService, 'playsOnBillboard' | 'revenueByDay'>

export function createAdvertisersService(deps: {
  database: Database
  limiter: RateLimiter
  passwords: PasswordWork
  content: ContentService
  payment: PaymentService
  mail: MailService
  log: Logger
  now: () => number
  /** Told once a change of what billboards show of campaigns committed (the on-air cache's). */
  airChanged: AirChanged
  settings: {
    /** ADVERTISER_TOKEN_KEYS */
    tokenKeys: readonly string[] | undefined
    /** AD_FREE_TIME_SHARE */
    defaultSharePercent: number
    /** SELLER_* and INVOICE_PREFIX: who the invoices' seller is */
    seller: Seller
  }
  /** Writes an operator's action to the audit log (in `tx` when given: with the change). */
  audit: (
    entry: {
      operator: Operator
      action: string
      detail: Record<string, unknown>
    },
    tx?: Queryable,
  ) => Promise<void>
}) {
  const { database, now, airChanged } = deps
  const log = deps.log.child({ component: 'advertisers' })
  const tokens = createAccessTokens({ configuredKeys: deps.settings.tokenKeys, db: database })
  const mails = createAdvertiserMails(deps.mail)
  const invoices = createInvoices({
    database,
    now,
    seller: deps.settings.seller,
    payment: deps.payment,
    log,
    audit: deps.audit,
  })
  const news = createCampaignNews({
    database,
    now,
    mails: createCampaignMails(deps.mail),
    invoiceOf: invoices.attachmentOf,
    log,
    airChanged,
  })
  const accounts = createAccountService({
    database,
    limiter: deps.limiter,
    passwords: deps.passwords,
    tokens,
    mails,
    log,
    now,
    audit: deps.audit,
  })
  const team = createTeamService({
    database,
    passwords: deps.passwords,
    mail: deps.mail,
    log,
    now,
  })
  const ads = createAdService({ database, now, content: deps.content, log })
  let campaigns: CampaignService | null = null
  const proposals = createProposalService({
    database,
    now,
    payment: deps.payment,
    campaigns: () => campaigns as CampaignService,
    booked: news.booked,
    adProblem: ads.adProblem,
    defaultSharePercent: deps.settings.defaultSharePercent,
    airChanged,
  })
  campaigns = createCampaignService({ database, now, extend: proposals.extend, airChanged })
  const review = createReviewService({
    database,
    now,
    campaigns,
    ads,
    mails,
    approved: news.approved,
    extend: proposals.extend,
    log,
    audit: deps.audit,
    airChanged,
  })
  const settlement = createSettlement({
    database,
    now,
    payment: deps.payment,
    mails,
    receipt: news.receipt,
    invoice: invoices.issueForCharge,
    log,
    airChanged,
  })
  const pacing = createPacing({
    database,
    now,
    defaultSharePercent: deps.settings.defaultSharePercent,
    log,
    airChanged,
  })
  const replaceCard = createCardReplacement({
    database,
    now,
    payment: deps.payment,
    campaigns,
    log,
  })
  return {
    accounts,
    /** The public page's billboards, their audience and price (for-sale.ts). */
    billboardsForSale: createBillboardsForSale({ database, now }),
    team,
    replaceCard,
    campaigns,
    ads,
    proposals,
    review,
    settlement,
    invoices,
    pacing,
    news,
    /** The plays campaigns hold on the billboard in [fromMs, toMs) (the console's day timeline). */
    playsOnBillboard: (deviceId: string, fromMs: number, toMs: number) =>
      adPlaysOnBillboard(database, deviceId, fromMs, toMs),
    /** Charged money per charged day and currency, from `fromDay` on (the console's dashboard). */
    revenueByDay: (fromDay: string) => adRevenueByDay(database, fromDay),
  }
}
