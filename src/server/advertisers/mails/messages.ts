// Every sentence of an advertiser's mails, in English (translations: the server's Lingui catalogs,
// src/locale/server). The mail module lays them out (mail/notice.ts) and keeps them in its outbox.
// Each message is a descriptor Lingui extracts (`npm run lingui:extract`); say() formats it.

export const ADVERTISER_MAIL_MESSAGES = {
  greeting: /*i18n*/ { id: 'advertiserMail.greeting', message: 'Hello {name},' },
  footer: /*i18n*/ {
    id: 'advertiserMail.footer',
    message:
      'Shouts: your messages on billboards. You receive this mail about your advertiser account.',
  },
  verify: {
    subject: /*i18n*/ {
      id: 'advertiserMail.verify.subject',
      message: 'Confirm your e-mail address for Shouts',
    },
    heading: /*i18n*/ {
      id: 'advertiserMail.verify.heading',
      message: 'Confirm your e-mail address',
    },
    intro: /*i18n*/ {
      id: 'advertiserMail.verify.intro',
      message:
        'Thank you for signing up to advertise with Shouts for {company}. Confirm that this address is yours to sign in.',
    },
    button: /*i18n*/ { id: 'advertiserMail.verify.button', message: 'Confirm my e-mail address' },
    lifetime: /*i18n*/ {
      id: 'advertiserMail.verify.lifetime',
      message: 'The link works once, for 24 hours.',
    },
    notYou: /*i18n*/ {
      id: 'advertiserMail.verify.notYou',
      message: 'If you did not sign up, ignore this mail: nothing happens without the link.',
    },
  },
  exists: {
    subject: /*i18n*/ {
      id: 'advertiserMail.exists.subject',
      message: 'Your Shouts advertiser account',
    },
    heading: /*i18n*/ {
      id: 'advertiserMail.exists.heading',
      message: 'You already have an account',
    },
    intro: /*i18n*/ {
      id: 'advertiserMail.exists.intro',
      message:
        'Someone, probably you, asked to sign up with this address, which already has an advertiser account. Sign in, or reset your password if you forgot it.',
    },
    signIn: /*i18n*/ { id: 'advertiserMail.exists.signIn', message: 'Sign in' },
    notYou: /*i18n*/ {
      id: 'advertiserMail.exists.notYou',
      message: 'If it was not you, ignore this mail: your account has not changed.',
    },
  },
  pending: {
    subject: /*i18n*/ {
      id: 'advertiserMail.pending.subject',
      message: 'Your Shouts advertiser account waits for your confirmation',
    },
    heading: /*i18n*/ {
      id: 'advertiserMail.pending.heading',
      message: 'Confirm your address with the first mail',
    },
    intro: /*i18n*/ {
      id: 'advertiserMail.pending.intro',
      message:
        'Someone, probably you, asked again to sign up with this address. Its account is waiting for you to confirm the address: use the link of the first mail we sent, then sign in with the password chosen then. Nothing was changed.',
    },
    lost: /*i18n*/ {
      id: 'advertiserMail.pending.lost',
      message:
        'If you cannot find that mail, or did not choose that password, ask for a new password on the sign-in page: its link confirms the address too.',
    },
    button: /*i18n*/ { id: 'advertiserMail.pending.button', message: 'Go to sign-in' },
    notYou: /*i18n*/ {
      id: 'advertiserMail.pending.notYou',
      message:
        'If it was not you, ignore this mail: nothing happens without the first mail’s link.',
    },
  },
  reset: {
    subject: /*i18n*/ { id: 'advertiserMail.reset.subject', message: 'Reset your Shouts password' },
    heading: /*i18n*/ { id: 'advertiserMail.reset.heading', message: 'Choose a new password' },
    intro: /*i18n*/ {
      id: 'advertiserMail.reset.intro',
      message: 'You asked to reset the password of your advertiser account. Choose a new one here:',
    },
    button: /*i18n*/ { id: 'advertiserMail.reset.button', message: 'Choose a new password' },
    lifetime: /*i18n*/ {
      id: 'advertiserMail.reset.lifetime',
      message: 'The link works once, for one hour. Every device signed in will be signed out.',
    },
    notYou: /*i18n*/ {
      id: 'advertiserMail.reset.notYou',
      message: 'If you did not ask, ignore this mail: your password has not changed.',
    },
  },
  rejected: {
    subject: /*i18n*/ {
      id: 'advertiserMail.rejected.subject',
      message: 'Your campaign "{campaign}" was not approved',
    },
    heading: /*i18n*/ {
      id: 'advertiserMail.rejected.heading',
      message: 'Your campaign was not approved',
    },
    intro: /*i18n*/ {
      id: 'advertiserMail.rejected.intro',
      message:
        'We reviewed the ad of your campaign "{campaign}" and cannot show it on our billboards.',
    },
    reason: /*i18n*/ { id: 'advertiserMail.rejected.reason', message: 'Reason' },
    charged: /*i18n*/ {
      id: 'advertiserMail.rejected.charged',
      message: 'Nothing was charged, and its plays are free again.',
    },
    button: /*i18n*/ { id: 'advertiserMail.rejected.button', message: 'See the campaign' },
  },
  chargeFailed: {
    subject: /*i18n*/ {
      id: 'advertiserMail.chargeFailed.subject',
      message: 'Your campaign "{campaign}" is paused: a payment failed',
    },
    heading: /*i18n*/ {
      id: 'advertiserMail.chargeFailed.heading',
      message: 'A payment for your campaign failed',
    },
    intro: /*i18n*/ {
      id: 'advertiserMail.chargeFailed.intro',
      message:
        'We could not charge your card for the proven plays of your campaign "{campaign}" on {day}.',
    },
    amount: /*i18n*/ { id: 'advertiserMail.chargeFailed.amount', message: 'Amount' },
    paused: /*i18n*/ {
      id: 'advertiserMail.chargeFailed.paused',
      message: 'Your campaign is paused until you resume it; nothing else was charged.',
    },
    button: /*i18n*/ { id: 'advertiserMail.chargeFailed.button', message: 'See the campaign' },
  },
  /** The invitation into a team (team-mails.ts), in the team's language. */
  invite: {
    subject: /*i18n*/ { id: 'advertiserMail.invite.subject', message: 'Join {company} on Shouts' },
    heading: /*i18n*/ {
      id: 'advertiserMail.invite.heading',
      message: 'You are invited to advertise with your team',
    },
    intro: /*i18n*/ {
      id: 'advertiserMail.invite.intro',
      message:
        "{who} invites you to work on {company}'s campaigns on Shouts as {role}. Choose your name and password to join.",
    },
    button: /*i18n*/ { id: 'advertiserMail.invite.button', message: 'Join the team' },
    lifetime: /*i18n*/ {
      id: 'advertiserMail.invite.lifetime',
      message: 'The link works once, for a week.',
    },
    notYou: /*i18n*/ {
      id: 'advertiserMail.invite.notYou',
      message: 'If you do not know this team, ignore this mail: nothing happens without the link.',
    },
    roles: {
      owner: /*i18n*/ {
        id: 'advertiserMail.invite.roles.owner',
        message: 'an owner (billing, cards and members)',
      },
      editor: /*i18n*/ {
        id: 'advertiserMail.invite.roles.editor',
        message: 'an editor (campaigns and budgets)',
      },
      viewer: /*i18n*/ {
        id: 'advertiserMail.invite.roles.viewer',
        message: 'a viewer (campaigns, reports and invoices, read only)',
      },
    },
  },
} as const
