import type { Locale } from '../../domain/locale.ts'

// The words of the "Forget my data" page (erasure-page.ts) and of the mails' footer line, in the
// shop's three languages.

export type ErasureTexts = {
  /** The mails' footer link. */
  link: string
  title: string
  ask: (code: string) => string
  what: string
  kept: string
  confirm: string
  wait: (when: string) => string
  busy: string
  forgotten: string
  gone: string
  goneText: string
  home: string
}

export const ERASURE_TEXTS: Record<Locale, ErasureTexts> = {
  en: {
    link: 'Forget my data',
    title: 'Forget my data',
    ask: (code) => `Do you want the shop to forget your personal data of order ${code} now?`,
    what: 'Your name, e-mail address, phone number, photo or video and message are deleted, and the mails we sent you are blanked. This cannot be undone.',
    kept: 'What the books need stays: the amounts, the times bought and whether the shout played.',
    confirm: 'Forget my data',
    wait: (when) =>
      `Your shout still has to play: its data is needed until then. You can have it forgotten from ${when}.`,
    busy: 'Your order is being processed right now. Please try again in a minute.',
    forgotten: 'Your personal data of this order is forgotten.',
    gone: 'This link no longer works',
    goneText: 'It is unknown or has expired. The data of an order is forgotten by itself in time.',
    home: 'Go to the shop',
  },
  fr: {
    link: 'Oublier mes données',
    title: 'Oublier mes données',
    ask: (code) =>
      `Voulez-vous que la boutique oublie dès maintenant vos données personnelles de la commande ${code} ?`,
    what: 'Votre nom, votre adresse e-mail, votre téléphone, votre photo ou vidéo et votre message sont effacés, et les e-mails envoyés sont vidés. C’est définitif.',
    kept: 'Ce que la comptabilité exige reste : les montants, les créneaux achetés et la diffusion du message.',
    confirm: 'Oublier mes données',
    wait: (when) =>
      `Votre message n’a pas encore été diffusé : ses données sont nécessaires jusque-là. Vous pourrez les faire oublier à partir du ${when}.`,
    busy: 'Votre commande est en cours de traitement. Réessayez dans une minute.',
    forgotten: 'Vos données personnelles de cette commande sont oubliées.',
    gone: 'Ce lien ne fonctionne plus',
    goneText:
      'Il est inconnu ou a expiré. Les données d’une commande sont de toute façon oubliées avec le temps.',
    home: 'Aller à la boutique',
  },
  de: {
    link: 'Meine Daten vergessen',
    title: 'Meine Daten vergessen',
    ask: (code) => `Soll der Shop deine persönlichen Daten der Bestellung ${code} jetzt vergessen?`,
    what: 'Dein Name, deine E-Mail-Adresse, Telefonnummer, dein Foto oder Video und deine Nachricht werden gelöscht, und die gesendeten E-Mails werden geleert. Das lässt sich nicht rückgängig machen.',
    kept: 'Was die Buchhaltung braucht, bleibt: die Beträge, die gekauften Zeiten und ob die Nachricht lief.',
    confirm: 'Meine Daten vergessen',
    wait: (when) =>
      `Deine Nachricht muss noch laufen: Bis dahin werden ihre Daten gebraucht. Ab ${when} kannst du sie vergessen lassen.`,
    busy: 'Deine Bestellung wird gerade bearbeitet. Bitte versuche es in einer Minute erneut.',
    forgotten: 'Deine persönlichen Daten dieser Bestellung sind vergessen.',
    gone: 'Dieser Link funktioniert nicht mehr',
    goneText:
      'Er ist unbekannt oder abgelaufen. Die Daten einer Bestellung werden mit der Zeit ohnehin vergessen.',
    home: 'Zum Shop',
  },
}
