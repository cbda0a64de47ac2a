import { randomUUID } from 'node:crypto'
import { type Locale, withLocalePrefix } from '../../../domain/locale.ts'
import type { MemberRole } from '../../../domain/team.ts'
import type { MailService } from '../../mail/service.ts'
import { ADVERTISER_MAIL_TEXTS } from '../mail-texts.ts'

// The invitation into a team, in the team's language: a one-time link in the address's fragment
// (#invite=…), as sign-up's verification link, so it is in no access log and no Referer.

const TEXTS: Record<
  Locale,
  {
    subject: (company: string) => string
    heading: string
    intro: (who: string, company: string, role: string) => string
    button: string
    lifetime: string
    notYou: string
    roles: Record<MemberRole, string>
  }
> = {
  en: {
    subject: (company) => `Join ${company} on Shouts`,
    heading: 'You are invited to advertise with your team',
    intro: (who, company, role) =>
      `${who} invites you to work on ${company}'s campaigns on Shouts as ${role}. Choose your name and password to join.`,
    button: 'Join the team',
    lifetime: 'The link works once, for a week.',
    notYou: 'If you do not know this team, ignore this mail: nothing happens without the link.',
    roles: {
      owner: 'an owner (billing, cards and members)',
      editor: 'an editor (campaigns and budgets)',
      viewer: 'a viewer (campaigns, reports and invoices, read only)',
    },
  },
  fr: {
    subject: (company) => `Rejoignez ${company} sur Shouts`,
    heading: 'Vous êtes invité à faire de la publicité avec votre équipe',
    intro: (who, company, role) =>
      `${who} vous invite à travailler sur les campagnes de ${company} sur Shouts en tant que ${role}. Choisissez votre nom et votre mot de passe pour rejoindre l’équipe.`,
    button: 'Rejoindre l’équipe',
    lifetime: 'Le lien fonctionne une seule fois, pendant une semaine.',
    notYou:
      'Si vous ne connaissez pas cette équipe, ignorez ce message : rien ne se passe sans le lien.',
    roles: {
      owner: 'propriétaire (facturation, cartes et membres)',
      editor: 'éditeur (campagnes et budgets)',
      viewer: 'lecteur (campagnes, rapports et factures, en lecture seule)',
    },
  },
  de: {
    subject: (company) => `Treten Sie ${company} bei Shouts bei`,
    heading: 'Sie sind eingeladen, mit Ihrem Team zu werben',
    intro: (who, company, role) =>
      `${who} lädt Sie ein, an den Kampagnen von ${company} bei Shouts mitzuarbeiten, als ${role}. Wählen Sie Ihren Namen und Ihr Passwort, um beizutreten.`,
    button: 'Dem Team beitreten',
    lifetime: 'Der Link funktioniert einmal, eine Woche lang.',
    notYou:
      'Wenn Sie dieses Team nicht kennen, ignorieren Sie diese E-Mail: Ohne den Link geschieht nichts.',
    roles: {
      owner: 'Inhaber (Abrechnung, Karten und Mitglieder)',
      editor: 'Bearbeiter (Kampagnen und Budgets)',
      viewer: 'Betrachter (Kampagnen, Berichte und Rechnungen, nur lesend)',
    },
  },
}

export function createTeamMails(mail: Pick<MailService, 'queueNotice' | 'origin'>) {
  return {
    async invite(
      to: { email: string; locale: Locale },
      from: { name: string; company: string },
      role: MemberRole,
      token: string,
    ): Promise<void> {
      const t = TEXTS[to.locale]
      const page = `${mail.origin()}${withLocalePrefix('/account', to.locale)}`
      await mail.queueNotice({
        key: `advertiser-invite-${randomUUID()}`,
        kind: 'member_invite',
        to: to.email,
        sensitive: true,
        view: {
          locale: to.locale,
          subject: t.subject(from.company),
          heading: t.heading,
          greeting: ADVERTISER_MAIL_TEXTS[to.locale].greeting(to.email),
          paragraphs: [t.intro(from.name, from.company, t.roles[role])],
          button: { label: t.button, url: `${page}#invite=${token}` },
          notes: [t.lifetime, t.notYou],
          footer: ADVERTISER_MAIL_TEXTS[to.locale].footer,
        },
      })
    },
  }
}
