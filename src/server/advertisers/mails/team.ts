import { randomUUID } from 'node:crypto'
import { type Locale, withLocalePrefix } from '../../../domain/locale.ts'
import type { MemberRole } from '../../../domain/team.ts'
import type { MailService } from '../../mail/service.ts'
import { sayAll } from '../../platform/i18n.ts'
import { ADVERTISER_MAIL_MESSAGES } from './messages.ts'

// The invitation into a team, in the team's language: a one-time link in the address's fragment
// (#invite=…), as sign-up's verification link, so it is in no access log and no Referer.

export function createTeamMails(mail: Pick<MailService, 'queueNotice' | 'origin'>) {
  return {
    async invite(
      to: { email: string; locale: Locale },
      from: { name: string; company: string },
      role: MemberRole,
      token: string,
    ): Promise<void> {
      const all = sayAll(to.locale, ADVERTISER_MAIL_MESSAGES)
      const t = all.invite
      const page = `${mail.origin()}${withLocalePrefix('/account', to.locale)}`
      await mail.queueNotice({
        key: `advertiser-invite-${randomUUID()}`,
        kind: 'member_invite',
        to: to.email,
        sensitive: true,
        view: {
          locale: to.locale,
          subject: t.subject({ company: from.company }),
          heading: t.heading(),
          greeting: all.greeting({ name: to.email }),
          paragraphs: [t.intro({ who: from.name, company: from.company, role: t.roles[role]() })],
          button: { label: t.button(), url: `${page}#invite=${token}` },
          notes: [t.lifetime(), t.notYou()],
          footer: all.footer(),
        },
      })
    },
  }
}
