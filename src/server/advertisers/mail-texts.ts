import type { Locale } from '../../domain/locale.ts'

// Every sentence of an advertiser's mails, per language (the server has no Lingui: a typed table, so
// a language that misses a sentence fails the typecheck). The mail module lays them out
// (mail/notice.ts) and keeps them in its outbox.

type Texts = {
  greeting: (name: string) => string
  footer: string
  verify: {
    subject: string
    heading: string
    intro: (company: string) => string
    button: string
    lifetime: string
    notYou: string
  }
  exists: {
    subject: string
    heading: string
    intro: string
    signIn: string
    notYou: string
  }
  /** a sign-up again for an account whose e-mail is not confirmed yet: nothing changed */
  pending: {
    subject: string
    heading: string
    intro: string
    lost: string
    button: string
    notYou: string
  }
  reset: {
    subject: string
    heading: string
    intro: string
    button: string
    lifetime: string
    notYou: string
  }
  rejected: {
    subject: (campaign: string) => string
    heading: string
    intro: (campaign: string) => string
    reason: string
    charged: string
    button: string
  }
  chargeFailed: {
    subject: (campaign: string) => string
    heading: string
    intro: (campaign: string, day: string) => string
    amount: string
    paused: string
    button: string
  }
}

export const ADVERTISER_MAIL_TEXTS: Record<Locale, Texts> = {
  en: {
    greeting: (name) => `Hello ${name},`,
    footer:
      'Shouts: your messages on billboards. You receive this mail about your advertiser account.',
    verify: {
      subject: 'Confirm your e-mail address for Shouts',
      heading: 'Confirm your e-mail address',
      intro: (company) =>
        `Thank you for signing up to advertise with Shouts for ${company}. Confirm that this address is yours to sign in.`,
      button: 'Confirm my e-mail address',
      lifetime: 'The link works once, for 24 hours.',
      notYou: 'If you did not sign up, ignore this mail: nothing happens without the link.',
    },
    exists: {
      subject: 'Your Shouts advertiser account',
      heading: 'You already have an account',
      intro:
        'Someone, probably you, asked to sign up with this address, which already has an advertiser account. Sign in, or reset your password if you forgot it.',
      signIn: 'Sign in',
      notYou: 'If it was not you, ignore this mail: your account has not changed.',
    },
    pending: {
      subject: 'Your Shouts advertiser account waits for your confirmation',
      heading: 'Confirm your address with the first mail',
      intro:
        'Someone, probably you, asked again to sign up with this address. Its account is waiting for you to confirm the address: use the link of the first mail we sent, then sign in with the password chosen then. Nothing was changed.',
      lost: 'If you cannot find that mail, or did not choose that password, ask for a new password on the sign-in page: its link confirms the address too.',
      button: 'Go to sign-in',
      notYou: 'If it was not you, ignore this mail: nothing happens without the first mail’s link.',
    },
    reset: {
      subject: 'Reset your Shouts password',
      heading: 'Choose a new password',
      intro: 'You asked to reset the password of your advertiser account. Choose a new one here:',
      button: 'Choose a new password',
      lifetime: 'The link works once, for one hour. Every device signed in will be signed out.',
      notYou: 'If you did not ask, ignore this mail: your password has not changed.',
    },
    rejected: {
      subject: (campaign) => `Your campaign "${campaign}" was not approved`,
      heading: 'Your campaign was not approved',
      intro: (campaign) =>
        `We reviewed the ad of your campaign "${campaign}" and cannot show it on our billboards.`,
      reason: 'Reason',
      charged: 'Nothing was charged, and its plays are free again.',
      button: 'See the campaign',
    },
    chargeFailed: {
      subject: (campaign) => `Your campaign "${campaign}" is paused: a payment failed`,
      heading: 'A payment for your campaign failed',
      intro: (campaign, day) =>
        `We could not charge your card for the proven plays of your campaign "${campaign}" on ${day}.`,
      amount: 'Amount',
      paused: 'Your campaign is paused until you resume it; nothing else was charged.',
      button: 'See the campaign',
    },
  },
  fr: {
    greeting: (name) => `Bonjour ${name},`,
    footer:
      'Shouts : vos messages sur les panneaux. Vous recevez ce courriel au sujet de votre compte annonceur.',
    verify: {
      subject: 'Confirmez votre adresse e-mail pour Shouts',
      heading: 'Confirmez votre adresse e-mail',
      intro: (company) =>
        `Merci de vous être inscrit pour annoncer avec Shouts pour ${company}. Confirmez que cette adresse est la vôtre pour vous connecter.`,
      button: 'Confirmer mon adresse e-mail',
      lifetime: 'Le lien fonctionne une fois, pendant 24 heures.',
      notYou:
        'Si vous ne vous êtes pas inscrit, ignorez ce courriel : rien ne se passe sans le lien.',
    },
    exists: {
      subject: 'Votre compte annonceur Shouts',
      heading: 'Vous avez déjà un compte',
      intro:
        "Quelqu'un, sans doute vous, a demandé à s'inscrire avec cette adresse, qui a déjà un compte annonceur. Connectez-vous, ou réinitialisez votre mot de passe si vous l'avez oublié.",
      signIn: 'Se connecter',
      notYou: "Si ce n'était pas vous, ignorez ce courriel : votre compte n'a pas changé.",
    },
    pending: {
      subject: 'Votre compte annonceur Shouts attend votre confirmation',
      heading: 'Confirmez votre adresse avec le premier courriel',
      intro:
        "Quelqu'un, sans doute vous, a demandé à nouveau à s'inscrire avec cette adresse. Son compte attend que vous confirmiez l'adresse : utilisez le lien du premier courriel que nous avons envoyé, puis connectez-vous avec le mot de passe choisi alors. Rien n'a été changé.",
      lost: "Si vous ne trouvez pas ce courriel, ou n'avez pas choisi ce mot de passe, demandez un nouveau mot de passe sur la page de connexion : son lien confirme aussi l'adresse.",
      button: 'Aller à la connexion',
      notYou:
        "Si ce n'était pas vous, ignorez ce courriel : rien ne se passe sans le lien du premier courriel.",
    },
    reset: {
      subject: 'Réinitialisez votre mot de passe Shouts',
      heading: 'Choisissez un nouveau mot de passe',
      intro:
        'Vous avez demandé à réinitialiser le mot de passe de votre compte annonceur. Choisissez-en un nouveau ici :',
      button: 'Choisir un nouveau mot de passe',
      lifetime:
        'Le lien fonctionne une fois, pendant une heure. Tous les appareils connectés seront déconnectés.',
      notYou:
        "Si vous n'avez rien demandé, ignorez ce courriel : votre mot de passe n'a pas changé.",
    },
    rejected: {
      subject: (campaign) => `Votre campagne « ${campaign} » n'a pas été approuvée`,
      heading: "Votre campagne n'a pas été approuvée",
      intro: (campaign) =>
        `Nous avons examiné la publicité de votre campagne « ${campaign} » et ne pouvons pas la diffuser sur nos panneaux.`,
      reason: 'Motif',
      charged: "Rien n'a été débité, et ses diffusions sont de nouveau libres.",
      button: 'Voir la campagne',
    },
    chargeFailed: {
      subject: (campaign) => `Votre campagne « ${campaign} » est en pause : un paiement a échoué`,
      heading: 'Un paiement de votre campagne a échoué',
      intro: (campaign, day) =>
        `Nous n'avons pas pu débiter votre carte pour les diffusions prouvées de votre campagne « ${campaign} » du ${day}.`,
      amount: 'Montant',
      paused:
        "Votre campagne est en pause jusqu'à ce que vous la repreniez ; rien d'autre n'a été débité.",
      button: 'Voir la campagne',
    },
  },
  de: {
    greeting: (name) => `Hallo ${name},`,
    footer:
      'Shouts: Ihre Botschaften auf Werbetafeln. Sie erhalten diese E-Mail zu Ihrem Werbekunden-Konto.',
    verify: {
      subject: 'Bestätigen Sie Ihre E-Mail-Adresse für Shouts',
      heading: 'Bestätigen Sie Ihre E-Mail-Adresse',
      intro: (company) =>
        `Danke, dass Sie sich angemeldet haben, um für ${company} mit Shouts zu werben. Bestätigen Sie, dass diese Adresse Ihnen gehört, um sich anzumelden.`,
      button: 'E-Mail-Adresse bestätigen',
      lifetime: 'Der Link funktioniert einmal, 24 Stunden lang.',
      notYou:
        'Wenn Sie sich nicht angemeldet haben, ignorieren Sie diese E-Mail: Ohne den Link geschieht nichts.',
    },
    exists: {
      subject: 'Ihr Shouts-Werbekunden-Konto',
      heading: 'Sie haben bereits ein Konto',
      intro:
        'Jemand, vermutlich Sie, wollte sich mit dieser Adresse anmelden, die bereits ein Werbekunden-Konto hat. Melden Sie sich an, oder setzen Sie Ihr Passwort zurück, falls Sie es vergessen haben.',
      signIn: 'Anmelden',
      notYou: 'Wenn Sie es nicht waren, ignorieren Sie diese E-Mail: Ihr Konto ist unverändert.',
    },
    pending: {
      subject: 'Ihr Shouts-Werbekunden-Konto wartet auf Ihre Bestätigung',
      heading: 'Bestätigen Sie Ihre Adresse mit der ersten E-Mail',
      intro:
        'Jemand, vermutlich Sie, wollte sich erneut mit dieser Adresse anmelden. Das Konto wartet darauf, dass Sie die Adresse bestätigen: Nutzen Sie den Link der ersten E-Mail, die wir gesendet haben, und melden Sie sich dann mit dem damals gewählten Passwort an. Nichts wurde geändert.',
      lost: 'Wenn Sie diese E-Mail nicht finden oder dieses Passwort nicht gewählt haben, fordern Sie auf der Anmeldeseite ein neues Passwort an: Sein Link bestätigt auch die Adresse.',
      button: 'Zur Anmeldung',
      notYou:
        'Wenn Sie es nicht waren, ignorieren Sie diese E-Mail: Ohne den Link der ersten E-Mail geschieht nichts.',
    },
    reset: {
      subject: 'Setzen Sie Ihr Shouts-Passwort zurück',
      heading: 'Wählen Sie ein neues Passwort',
      intro:
        'Sie haben gebeten, das Passwort Ihres Werbekunden-Kontos zurückzusetzen. Wählen Sie hier ein neues:',
      button: 'Neues Passwort wählen',
      lifetime:
        'Der Link funktioniert einmal, eine Stunde lang. Alle angemeldeten Geräte werden abgemeldet.',
      notYou:
        'Wenn Sie nichts angefordert haben, ignorieren Sie diese E-Mail: Ihr Passwort ist unverändert.',
    },
    rejected: {
      subject: (campaign) => `Ihre Kampagne „${campaign}“ wurde nicht freigegeben`,
      heading: 'Ihre Kampagne wurde nicht freigegeben',
      intro: (campaign) =>
        `Wir haben die Werbung Ihrer Kampagne „${campaign}“ geprüft und können sie auf unseren Werbetafeln nicht zeigen.`,
      reason: 'Grund',
      charged: 'Es wurde nichts abgebucht, und ihre Ausspielungen sind wieder frei.',
      button: 'Kampagne ansehen',
    },
    chargeFailed: {
      subject: (campaign) =>
        `Ihre Kampagne „${campaign}“ ist pausiert: eine Zahlung ist fehlgeschlagen`,
      heading: 'Eine Zahlung Ihrer Kampagne ist fehlgeschlagen',
      intro: (campaign, day) =>
        `Wir konnten Ihre Karte für die nachgewiesenen Ausspielungen Ihrer Kampagne „${campaign}“ am ${day} nicht belasten.`,
      amount: 'Betrag',
      paused: 'Ihre Kampagne ist pausiert, bis Sie sie fortsetzen; sonst wurde nichts abgebucht.',
      button: 'Kampagne ansehen',
    },
  },
}
