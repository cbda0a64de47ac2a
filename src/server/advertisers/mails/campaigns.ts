import { type Locale, withLocalePrefix } from '../../../domain/locale.ts'
import { formatMoney } from '../../../domain/money.ts'
import type { MailAttachment as Attachment, MailService } from '../../mail/service.ts'
import { say, sayAll } from '../../platform/i18n.ts'
import { ADVERTISER_MAIL_MESSAGES } from './messages.ts'
import { CAMPAIGN_MAIL_MESSAGES } from './messages-campaigns.ts'

// The mails of a campaign's life to its advertiser, in the account's language, through the mail
// module's outbox: booked, approved, on air (its first proven play), each day's receipt, completed
// with its totals. Each has a key of its own (the campaign, or the campaign and day), so a step
// repeated by a retry, a second instance or a run after a crash mails once.

type Recipient = { email: string; name: string; locale: Locale }
type CampaignFacts = {
  campaignId: string
  name: string
  currency: string
  budgetCents: number
  startEpochMs: number
  endEpochMs: number
}
/** A billboard as a mail names it, with its time zone (dates are its local ones). */
export type MailBillboard = { deviceId: string; location: string; city: string; timeZoneId: string }

const TAGS: Record<Locale, string> = { en: 'en-GB', fr: 'fr-FR', de: 'de-DE' }

const when = (epochMs: number, locale: Locale, timeZone: string) =>
  new Intl.DateTimeFormat(TAGS[locale], { dateStyle: 'long', timeStyle: 'short', timeZone }).format(
    epochMs,
  )
const dayOf = (day: string, locale: Locale) =>
  new Intl.DateTimeFormat(TAGS[locale], { dateStyle: 'long', timeZone: 'UTC' }).format(
    Date.parse(`${day}T12:00:00Z`),
  )
const count = (n: number, locale: Locale) => new Intl.NumberFormat(TAGS[locale]).format(n)
const named = (b: MailBillboard) => `${b.location}, ${b.city}`

export type CampaignMails = ReturnType<typeof createCampaignMails>

export function createCampaignMails(mail: Pick<MailService, 'queueNotice' | 'origin'>) {
  const campaignUrl = (campaignId: string, locale: Locale) =>
    `${mail.origin()}${withLocalePrefix(`/campaigns/${encodeURIComponent(campaignId)}`, locale)}`

  function send(
    to: Recipient,
    c: CampaignFacts,
    key: string,
    kind:
      | 'campaign_booked'
      | 'campaign_approved'
      | 'campaign_live'
      | 'campaign_receipt'
      | 'campaign_completed',
    view: {
      subject: string
      heading: string
      paragraphs: string[]
      rows?: { label: string; value: string }[]
    },
    attachments?: readonly Attachment[],
  ): Promise<boolean> {
    const t = sayAll(to.locale, CAMPAIGN_MAIL_MESSAGES)
    return mail.queueNotice({
      key,
      kind,
      to: to.email,
      sensitive: false,
      ...(attachments ? { attachments } : {}),
      view: {
        locale: to.locale,
        greeting: say(to.locale, ADVERTISER_MAIL_MESSAGES.greeting, { name: to.name }),
        ...view,
        button: { label: t.button(), url: campaignUrl(c.campaignId, to.locale) },
        footer: say(to.locale, ADVERTISER_MAIL_MESSAGES.footer),
      },
    })
  }

  function flightRows(to: Recipient, c: CampaignFacts, billboards: readonly MailBillboard[]) {
    const t = sayAll(to.locale, CAMPAIGN_MAIL_MESSAGES)
    const zone = billboards[0]?.timeZoneId ?? 'UTC'
    return [
      {
        label: t.flight(),
        value: `${when(c.startEpochMs, to.locale, zone)} – ${when(c.endEpochMs, to.locale, zone)}`,
      },
      {
        label: t.budget(),
        value: formatMoney(c.budgetCents, { currency: c.currency, locale: to.locale }),
      },
      { label: t.billboards(), value: billboards.map(named).join('; ') },
    ]
  }

  return {
    /** Once per campaign: its plays are reserved and its card saved; the ad awaits review. */
    booked(to: Recipient, c: CampaignFacts, billboards: readonly MailBillboard[]) {
      const t = sayAll(to.locale, CAMPAIGN_MAIL_MESSAGES.booked)
      return send(to, c, `campaign-booked-${c.campaignId}`, 'campaign_booked', {
        subject: t.subject({ campaign: c.name }),
        heading: t.heading(),
        paragraphs: [t.intro({ campaign: c.name }), t.review()],
        rows: flightRows(to, c, billboards),
      })
    },

    /** Once per campaign: a reviewer approved its ad. */
    approved(to: Recipient, c: CampaignFacts, billboards: readonly MailBillboard[]) {
      const t = sayAll(to.locale, CAMPAIGN_MAIL_MESSAGES.approved)
      const zone = billboards[0]?.timeZoneId ?? 'UTC'
      return send(to, c, `campaign-approved-${c.campaignId}`, 'campaign_approved', {
        subject: t.subject({ campaign: c.name }),
        heading: t.heading(),
        paragraphs: [t.intro({ campaign: c.name, start: when(c.startEpochMs, to.locale, zone) })],
        rows: flightRows(to, c, billboards),
      })
    },

    /** Once per campaign: its first play was proven (it is Live). */
    live(to: Recipient, c: CampaignFacts, first: { billboard: MailBillboard; atEpochMs: number }) {
      const t = sayAll(to.locale, CAMPAIGN_MAIL_MESSAGES.live)
      const at = when(first.atEpochMs, to.locale, first.billboard.timeZoneId)
      return send(to, c, `campaign-live-${c.campaignId}`, 'campaign_live', {
        subject: t.subject({ campaign: c.name }),
        heading: t.heading(),
        paragraphs: [
          t.intro({ campaign: c.name, billboard: named(first.billboard), at }),
          t.receipts(),
        ],
      })
    },

    /** Once per charge (its key): what a day's proven plays cost, billboard by billboard. */
    receipt(
      to: Recipient,
      c: CampaignFacts,
      charge: {
        key: string
        day: string
        amountCents: number
        lines: { billboard: MailBillboard; plays: number; impressions: number; costCents: number }[]
      },
      /** The charge's invoice as a PDF. */
      invoice: Attachment | null = null,
    ) {
      const t = sayAll(to.locale, CAMPAIGN_MAIL_MESSAGES.receipt)
      const money = (cents: number) =>
        formatMoney(cents, { currency: c.currency, locale: to.locale })
      const day = dayOf(charge.day, to.locale)
      const full = charge.lines.reduce((n, l) => n + l.costCents, 0)
      return send(
        to,
        c,
        `campaign-receipt-${charge.key}`,
        'campaign_receipt',
        {
          subject: t.subject({ campaign: c.name, day }),
          heading: t.heading(),
          paragraphs: [
            t.intro({ campaign: c.name, day }),
            ...(charge.amountCents < full ? [t.capped()] : []),
          ],
          rows: [
            ...charge.lines.map((l) => ({
              label: named(l.billboard),
              value: t.line({
                plays: count(l.plays, to.locale),
                impressions: count(l.impressions, to.locale),
                amount: money(l.costCents),
              }),
            })),
            { label: t.total(), value: money(charge.amountCents) },
          ],
        },
        invoice ? [invoice] : undefined,
      )
    },

    /** Once per campaign: it is over, with what it reached and cost in all. */
    completed(
      to: Recipient,
      c: CampaignFacts,
      reason: 'flight_ended' | 'budget_spent',
      totals: { provenPlays: number; impressions: number; spentCents: number },
    ) {
      const t = sayAll(to.locale, CAMPAIGN_MAIL_MESSAGES.completed)
      const money = (cents: number) =>
        formatMoney(cents, { currency: c.currency, locale: to.locale })
      return send(to, c, `campaign-completed-${c.campaignId}`, 'campaign_completed', {
        subject: t.subject({ campaign: c.name }),
        heading: t.heading(),
        paragraphs: [
          reason === 'budget_spent'
            ? t.budgetSpent({ campaign: c.name })
            : t.flightEnded({ campaign: c.name }),
        ],
        rows: [
          { label: t.plays(), value: count(totals.provenPlays, to.locale) },
          { label: t.impressions(), value: count(totals.impressions, to.locale) },
          { label: t.spent(), value: money(totals.spentCents) },
          { label: t.budget(), value: money(c.budgetCents) },
        ],
      })
    },
  }
}
