import { randomUUID } from 'node:crypto'
import { type Locale, withLocalePrefix } from '../../../domain/locale.ts'
import type { MailService } from '../../mail/service.ts'
import { sayAll } from '../../platform/i18n.ts'
import { ADVERTISER_MAIL_MESSAGES } from './messages.ts'

// The advertisers' mails, in the account's language, handed to the mail module's outbox
// (mail.queueNotice): the verification link, "you have an account already", "your account waits
// for the first mail's link", the password reset link, a campaign rejected. A one-time link travels in the address's fragment (#verify=…), which a
// browser never sends to a server: it is in no access log and no Referer.

type Recipient = { email: string; name: string; company: string; locale: Locale }

export type AdvertiserMails = ReturnType<typeof createAdvertiserMails>

export function createAdvertiserMails(mail: Pick<MailService, 'queueNotice' | 'origin'>) {
  const page = (path: string, locale: Locale) => `${mail.origin()}${withLocalePrefix(path, locale)}`

  return {
    async verify(to: Recipient, token: string): Promise<void> {
      const t = sayAll(to.locale, ADVERTISER_MAIL_MESSAGES)
      await mail.queueNotice({
        key: `advertiser-verify-${randomUUID()}`,
        kind: 'account_verify',
        to: to.email,
        sensitive: true,
        view: {
          locale: to.locale,
          subject: t.verify.subject(),
          heading: t.verify.heading(),
          greeting: t.greeting({ name: to.name }),
          paragraphs: [t.verify.intro({ company: to.company })],
          button: {
            label: t.verify.button(),
            url: `${page('/account', to.locale)}#verify=${token}`,
          },
          notes: [t.verify.lifetime(), t.verify.notYou()],
          footer: t.footer(),
        },
      })
    },

    async accountExists(to: Recipient): Promise<void> {
      const t = sayAll(to.locale, ADVERTISER_MAIL_MESSAGES)
      await mail.queueNotice({
        key: `advertiser-exists-${randomUUID()}`,
        kind: 'account_exists',
        to: to.email,
        sensitive: false,
        view: {
          locale: to.locale,
          subject: t.exists.subject(),
          heading: t.exists.heading(),
          greeting: t.greeting({ name: to.name }),
          paragraphs: [t.exists.intro()],
          button: { label: t.exists.signIn(), url: page('/account', to.locale) },
          notes: [t.exists.notYou()],
          footer: t.footer(),
        },
      })
    },

    /** Someone signed up again with the address of an account not confirmed yet: no link. */
    async signUpPending(to: Recipient): Promise<void> {
      const t = sayAll(to.locale, ADVERTISER_MAIL_MESSAGES)
      await mail.queueNotice({
        key: `advertiser-pending-${randomUUID()}`,
        // the outbox's kind for "this address has an account" (the console lists it so)
        kind: 'account_exists',
        to: to.email,
        sensitive: false,
        view: {
          locale: to.locale,
          subject: t.pending.subject(),
          heading: t.pending.heading(),
          greeting: t.greeting({ name: to.name }),
          paragraphs: [t.pending.intro(), t.pending.lost()],
          button: { label: t.pending.button(), url: page('/account', to.locale) },
          notes: [t.pending.notYou()],
          footer: t.footer(),
        },
      })
    },

    async passwordReset(to: Recipient, token: string): Promise<void> {
      const t = sayAll(to.locale, ADVERTISER_MAIL_MESSAGES)
      await mail.queueNotice({
        key: `advertiser-reset-${randomUUID()}`,
        kind: 'password_reset',
        to: to.email,
        sensitive: true,
        view: {
          locale: to.locale,
          subject: t.reset.subject(),
          heading: t.reset.heading(),
          greeting: t.greeting({ name: to.name }),
          paragraphs: [t.reset.intro()],
          button: { label: t.reset.button(), url: `${page('/account', to.locale)}#reset=${token}` },
          notes: [t.reset.lifetime(), t.reset.notYou()],
          footer: t.footer(),
        },
      })
    },

    /** Once per campaign (its key): a rejection is final. */
    async campaignRejected(
      to: Recipient,
      campaign: { campaignId: string; name: string },
      reason: string,
    ): Promise<void> {
      const t = sayAll(to.locale, ADVERTISER_MAIL_MESSAGES)
      await mail.queueNotice({
        key: `campaign-rejected-${campaign.campaignId}`,
        kind: 'campaign_rejected',
        to: to.email,
        sensitive: false,
        view: {
          locale: to.locale,
          subject: t.rejected.subject({ campaign: campaign.name }),
          heading: t.rejected.heading(),
          greeting: t.greeting({ name: to.name }),
          paragraphs: [t.rejected.intro({ campaign: campaign.name }), t.rejected.charged()],
          rows: [{ label: t.rejected.reason(), value: reason }],
          button: {
            label: t.rejected.button(),
            url: page(`/campaigns/${encodeURIComponent(campaign.campaignId)}`, to.locale),
          },
          footer: t.footer(),
        },
      })
    },

    /** Once per charge (its key): the card was declined for a day's plays; the campaign is paused. */
    async chargeFailed(
      to: Recipient,
      campaign: { campaignId: string; name: string },
      charge: { day: string; amount: string; key: string },
    ): Promise<void> {
      const t = sayAll(to.locale, ADVERTISER_MAIL_MESSAGES)
      await mail.queueNotice({
        key: `charge-failed-${charge.key}`,
        kind: 'campaign_charge_failed',
        to: to.email,
        sensitive: false,
        view: {
          locale: to.locale,
          subject: t.chargeFailed.subject({ campaign: campaign.name }),
          heading: t.chargeFailed.heading(),
          greeting: t.greeting({ name: to.name }),
          paragraphs: [
            t.chargeFailed.intro({ campaign: campaign.name, day: charge.day }),
            t.chargeFailed.paused(),
          ],
          rows: [{ label: t.chargeFailed.amount(), value: charge.amount }],
          button: {
            label: t.chargeFailed.button(),
            url: page(`/campaigns/${encodeURIComponent(campaign.campaignId)}`, to.locale),
          },
          footer: t.footer(),
        },
      })
    },
  }
}
