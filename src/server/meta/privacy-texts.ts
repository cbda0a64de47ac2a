import type { Locale } from '../../domain/locale.ts'

// The shop's privacy page (privacy-page.ts) in plain words, in its three languages: what
// docs/privacy.md says, for the shopper.

export type PrivacyTexts = {
  title: string
  intro: string
  sections: (lifetime: { orderDays: number; unorderedHours: number }) => {
    heading: string
    lines: string[]
  }[]
  home: string
}

export const PRIVACY_TEXTS: Record<Locale, PrivacyTexts> = {
  en: {
    title: 'Your data',
    intro:
      'A shout is personal: a photo, a message to someone, your name and how to reach you. We keep each piece only while we need it to make and play your shout, then we forget it.',
    sections: ({ orderDays, unorderedHours }) => [
      {
        heading: 'What we keep, and for how long',
        lines: [
          `A photo or video you upload and the shouts made of it, if you do not order: ${unorderedHours} hours.`,
          `Your name, e-mail address, phone number, marketing choice, photo or video, message, and the mails we sent you: until ${orderDays} days after your order's last time on the billboard.`,
          'The browsers you asked to tell you when your shout plays: until it has played.',
          'A keepsake page you shared: until you stop sharing it, at the latest with the rest.',
        ],
      },
      {
        heading: 'What stays',
        lines: [
          'What the books need: the amounts, the times bought, the payment and refund records, the card’s brand and last four digits, and the proof that your shout played.',
        ],
      },
      {
        heading: 'Having it forgotten sooner',
        lines: [
          'Every mail about your order ends with a “Forget my data” link. Once your shout has played, its page forgets your personal data of that order at once, and one last mail to your address confirms it.',
        ],
      },
    ],
    home: 'Go to the shop',
  },
  fr: {
    title: 'Vos données',
    intro:
      'Un message est personnel : une photo, quelques mots pour quelqu’un, votre nom et vos coordonnées. Nous gardons chaque élément le temps de créer et de diffuser votre message, puis nous l’oublions.',
    sections: ({ orderDays, unorderedHours }) => [
      {
        heading: 'Ce que nous gardons, et combien de temps',
        lines: [
          `Une photo ou vidéo envoyée et les messages créés avec, si vous ne commandez pas : ${unorderedHours} heures.`,
          `Votre nom, votre adresse e-mail, votre téléphone, votre choix marketing, votre photo ou vidéo, votre message et les e-mails envoyés : jusqu’à ${orderDays} jours après le dernier créneau de votre commande.`,
          'Les navigateurs à prévenir de la diffusion : jusqu’à la diffusion.',
          'Une page souvenir partagée : jusqu’à ce que vous arrêtiez le partage, au plus tard avec le reste.',
        ],
      },
      {
        heading: 'Ce qui reste',
        lines: [
          'Ce que la comptabilité exige : les montants, les créneaux achetés, les paiements et remboursements, la marque et les quatre derniers chiffres de la carte, et la preuve de diffusion.',
        ],
      },
      {
        heading: 'Les faire oublier plus tôt',
        lines: [
          'Chaque e-mail de votre commande se termine par un lien « Oublier mes données ». Une fois votre message diffusé, sa page oublie aussitôt vos données personnelles de cette commande, et un dernier e-mail vous le confirme.',
        ],
      },
    ],
    home: 'Aller à la boutique',
  },
  de: {
    title: 'Deine Daten',
    intro:
      'Eine Nachricht ist persönlich: ein Foto, ein paar Worte an jemanden, dein Name und wie man dich erreicht. Wir behalten jedes Stück nur so lange, wie wir es brauchen, um deine Nachricht zu erstellen und zu zeigen, dann vergessen wir es.',
    sections: ({ orderDays, unorderedHours }) => [
      {
        heading: 'Was wir behalten und wie lange',
        lines: [
          `Ein hochgeladenes Foto oder Video und die daraus gemachten Nachrichten, wenn du nicht bestellst: ${unorderedHours} Stunden.`,
          `Dein Name, deine E-Mail-Adresse, Telefonnummer, Marketing-Wahl, dein Foto oder Video, deine Nachricht und die gesendeten E-Mails: bis ${orderDays} Tage nach der letzten Zeit deiner Bestellung auf dem Bildschirm.`,
          'Die Browser, die du benachrichtigen lässt: bis deine Nachricht gelaufen ist.',
          'Eine geteilte Erinnerungsseite: bis du das Teilen beendest, spätestens mit dem Rest.',
        ],
      },
      {
        heading: 'Was bleibt',
        lines: [
          'Was die Buchhaltung braucht: die Beträge, die gekauften Zeiten, Zahlungen und Erstattungen, die Kartenmarke und ihre letzten vier Ziffern und der Nachweis, dass deine Nachricht lief.',
        ],
      },
      {
        heading: 'Früher vergessen lassen',
        lines: [
          'Jede E-Mail zu deiner Bestellung endet mit dem Link „Meine Daten vergessen“. Sobald deine Nachricht gelaufen ist, vergisst seine Seite deine persönlichen Daten dieser Bestellung sofort, und eine letzte E-Mail bestätigt es dir.',
        ],
      },
    ],
    home: 'Zum Shop',
  },
}
