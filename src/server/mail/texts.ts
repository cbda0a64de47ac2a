import type { OrderMailKind as MailKind } from '../../contract/mail.ts'
import type { Locale } from '../../domain/locale.ts'

export type { MailKind }

// Every sentence a mail says, per language. The server has no Lingui: the texts are
// this typed table, Record<Locale, MailTexts>, so a language that misses a sentence (or a kind) fails
// the typecheck. Values are filled in by templates.ts; the functions here only place them.

type KindTexts = {
  subject: (code: string) => string
  heading: string
  /** The opening paragraph. */
  intro: (event: string) => string
}

export type MailTexts = {
  kinds: Record<MailKind, KindTexts>
  greeting: (firstName: string) => string
  code: string
  billboard: string
  times: string
  timeZone: (zone: string) => string
  total: string
  reason: string
  refunded: string
  firstPlay: (minutes: number) => string
  plays: string
  noPlays: string
  /** make_good: how many of the plays were proven, and each slot's plays that were not. */
  playedCount: string
  playedOf: (proven: number, due: number) => string
  missed: string
  missedSlot: (time: string, missed: number, of: number) => string
  contentAlt: (event: string) => string
  seeOrder: string
  calendarNote: string
  calendarSummary: (event: string) => string
  footer: string
  /** The footer's link that asks the shop to forget the order's personal data. */
  forgetData: string
  /** The erasure's mail: what the shop keeps of the order, and why. */
  kept: string
}

export const MAIL_TEXTS: Record<Locale, MailTexts> = {
  en: {
    kinds: {
      confirmed: {
        subject: (code) => `Your shout is confirmed (${code})`,
        heading: 'Your shout is confirmed',
        intro: (event) =>
          `Thank you! Your shout for ${event} is booked and paid. It will play at the times below.`,
      },
      under_review: {
        subject: (code) => `We received your order (${code}): it is being reviewed`,
        heading: 'Your order is being reviewed',
        intro: (event) =>
          `Thank you! We received your order for ${event}. Someone on our team checks it before it plays; we will e-mail you as soon as it is approved.`,
      },
      approved: {
        subject: (code) => `Your shout is approved (${code})`,
        heading: 'Your shout is approved',
        intro: (event) =>
          `Good news: your shout for ${event} was approved. It will play at the times below.`,
      },
      cancelled: {
        subject: (code) => `Your order was cancelled and refunded (${code})`,
        heading: 'Your order was cancelled',
        intro: (event) =>
          `We are sorry: your order for ${event} was cancelled and will not play. Your payment has been refunded.`,
      },
      payment_failed: {
        subject: (code) => `Your order was not placed: the payment was not confirmed (${code})`,
        heading: 'Your payment was not confirmed',
        intro: (event) =>
          `We are sorry: your bank did not confirm the payment for your order for ${event}, so the order was not placed and nothing was charged. The times are free again: you can order again.`,
      },
      reminder: {
        subject: (code) => `Your shout airs soon (${code})`,
        heading: 'Your shout airs soon',
        intro: (event) => `Get ready: your shout for ${event} is about to play on the billboard.`,
      },
      played: {
        subject: (code) => `Your shout played (${code})`,
        heading: 'Your shout played',
        intro: (event) =>
          `Your shout for ${event} has played. Here is when the billboard showed it.`,
      },
      erased: {
        subject: (code) => `Your personal data is forgotten (${code})`,
        heading: 'Your personal data is forgotten',
        intro: (event) =>
          `As you asked, we erased your photo or video, your message and your contact details (name, e-mail address, phone number) from your order for ${event}, and blanked the mails we sent you. This is the last mail about it.`,
      },
      make_good: {
        subject: (code) => `Not every play of your shout happened: your refund (${code})`,
        heading: 'Not every play of your shout happened',
        intro: (event) =>
          `The billboard did not show your shout for ${event} every time it was due. You do not pay for the plays that did not happen: their share of what you paid is refunded to your card.`,
      },
    },
    greeting: (name) => `Hello ${name},`,
    code: 'Confirmation code',
    billboard: 'Billboard',
    times: 'Times',
    timeZone: (zone) => `Times are in the billboard's time zone (${zone}).`,
    total: 'Total',
    reason: 'Reason',
    refunded: 'Refunded',
    firstPlay: (minutes) => `First play in about ${minutes} minutes`,
    plays: 'Played at',
    noPlays: 'The billboard has not reported its plays.',
    playedCount: 'Played',
    playedOf: (proven, due) => `${proven} of ${due} plays`,
    missed: 'Did not play',
    missedSlot: (time, missed, of) => `${time}: ${missed} of ${of} plays`,
    contentAlt: (event) => `Your shout for ${event}`,
    seeOrder: 'See your order',
    calendarNote: 'The attached calendar file (.ics) adds your times to your calendar.',
    calendarSummary: (event) => `Your shout at ${event}`,
    footer: 'Shouts: your message on the big screen.',
    forgetData: 'Forget my data',
    kept: 'We keep what the accounts need, without your name: the confirmation code, the billboard, the times booked, the amount paid or refunded and the proofs that the billboard played it. Bookkeeping law requires us to keep these records.',
  },
  fr: {
    kinds: {
      confirmed: {
        subject: (code) => `Votre shout est confirmé (${code})`,
        heading: 'Votre shout est confirmé',
        intro: (event) =>
          `Merci ! Votre shout pour ${event} est réservé et payé. Il passera aux horaires ci-dessous.`,
      },
      under_review: {
        subject: (code) =>
          `Nous avons reçu votre commande (${code}) : elle est en cours de vérification`,
        heading: 'Votre commande est en cours de vérification',
        intro: (event) =>
          `Merci ! Nous avons reçu votre commande pour ${event}. Notre équipe la vérifie avant sa diffusion ; nous vous écrirons dès qu’elle sera approuvée.`,
      },
      approved: {
        subject: (code) => `Votre shout est approuvé (${code})`,
        heading: 'Votre shout est approuvé',
        intro: (event) =>
          `Bonne nouvelle : votre shout pour ${event} a été approuvé. Il passera aux horaires ci-dessous.`,
      },
      cancelled: {
        subject: (code) => `Votre commande a été annulée et remboursée (${code})`,
        heading: 'Votre commande a été annulée',
        intro: (event) =>
          `Nous sommes désolés : votre commande pour ${event} a été annulée et ne sera pas diffusée. Votre paiement a été remboursé.`,
      },
      payment_failed: {
        subject: (code) =>
          `Votre commande n'a pas été passée : le paiement n'a pas été confirmé (${code})`,
        heading: "Votre paiement n'a pas été confirmé",
        intro: (event) =>
          `Nous sommes désolés : votre banque n'a pas confirmé le paiement de votre commande pour ${event}. La commande n'a donc pas été passée et rien n'a été débité. Les créneaux sont de nouveau libres : vous pouvez commander à nouveau.`,
      },
      reminder: {
        subject: (code) => `Votre shout passe bientôt (${code})`,
        heading: 'Votre shout passe bientôt',
        intro: (event) =>
          `Préparez-vous : votre shout pour ${event} va bientôt passer sur l’écran.`,
      },
      played: {
        subject: (code) => `Votre shout est passé (${code})`,
        heading: 'Votre shout est passé',
        intro: (event) => `Votre shout pour ${event} est passé. Voici quand l’écran l’a montré.`,
      },
      erased: {
        subject: (code) => `Vos données personnelles sont oubliées (${code})`,
        heading: 'Vos données personnelles sont oubliées',
        intro: (event) =>
          `Comme vous l’avez demandé, nous avons effacé votre photo ou vidéo, votre message et vos coordonnées (nom, adresse e-mail, téléphone) de votre commande pour ${event}, et vidé les e-mails envoyés. C’est le dernier e-mail à son sujet.`,
      },
      make_good: {
        subject: (code) =>
          `Votre shout n’a pas été diffusé à chaque fois : votre remboursement (${code})`,
        heading: 'Votre shout n’a pas été diffusé à chaque fois',
        intro: (event) =>
          `L’écran n’a pas montré votre shout pour ${event} à chaque diffusion prévue. Vous ne payez pas les diffusions qui n’ont pas eu lieu : leur part de ce que vous avez payé est remboursée sur votre carte.`,
      },
    },
    greeting: (name) => `Bonjour ${name},`,
    code: 'Code de confirmation',
    billboard: 'Écran',
    times: 'Horaires',
    timeZone: (zone) => `Horaires dans le fuseau de l’écran (${zone}).`,
    total: 'Total',
    reason: 'Motif',
    refunded: 'Remboursé',
    firstPlay: (minutes) => `Première diffusion dans environ ${minutes} minutes`,
    plays: 'Diffusé à',
    noPlays: 'L’écran n’a pas signalé ses diffusions.',
    playedCount: 'Diffusé',
    playedOf: (proven, due) => `${proven} diffusions sur ${due}`,
    missed: 'Non diffusé',
    missedSlot: (time, missed, of) => `${time} : ${missed} diffusions sur ${of}`,
    contentAlt: (event) => `Votre shout pour ${event}`,
    seeOrder: 'Voir votre commande',
    calendarNote: 'Le fichier calendrier joint (.ics) ajoute vos horaires à votre agenda.',
    calendarSummary: (event) => `Votre shout à ${event}`,
    footer: 'Shouts : votre message sur grand écran.',
    forgetData: 'Oublier mes données',
    kept: 'Nous gardons ce que la comptabilité exige, sans votre nom : le code de confirmation, l’écran, les créneaux réservés, le montant payé ou remboursé et les preuves de diffusion. La loi comptable nous oblige à conserver ces pièces.',
  },
  de: {
    kinds: {
      confirmed: {
        subject: (code) => `Dein Shout ist bestätigt (${code})`,
        heading: 'Dein Shout ist bestätigt',
        intro: (event) =>
          `Danke! Dein Shout für ${event} ist gebucht und bezahlt. Er läuft zu den Zeiten unten.`,
      },
      under_review: {
        subject: (code) => `Wir haben deine Bestellung erhalten (${code}): sie wird geprüft`,
        heading: 'Deine Bestellung wird geprüft',
        intro: (event) =>
          `Danke! Wir haben deine Bestellung für ${event} erhalten. Unser Team prüft sie, bevor sie läuft; wir schreiben dir, sobald sie freigegeben ist.`,
      },
      approved: {
        subject: (code) => `Dein Shout ist freigegeben (${code})`,
        heading: 'Dein Shout ist freigegeben',
        intro: (event) =>
          `Gute Nachricht: Dein Shout für ${event} wurde freigegeben. Er läuft zu den Zeiten unten.`,
      },
      cancelled: {
        subject: (code) => `Deine Bestellung wurde storniert und erstattet (${code})`,
        heading: 'Deine Bestellung wurde storniert',
        intro: (event) =>
          `Es tut uns leid: Deine Bestellung für ${event} wurde storniert und läuft nicht. Deine Zahlung wurde erstattet.`,
      },
      payment_failed: {
        subject: (code) =>
          `Deine Bestellung wurde nicht aufgegeben: Die Zahlung wurde nicht bestätigt (${code})`,
        heading: 'Deine Zahlung wurde nicht bestätigt',
        intro: (event) =>
          `Es tut uns leid: Deine Bank hat die Zahlung für Deine Bestellung für ${event} nicht bestätigt. Die Bestellung wurde daher nicht aufgegeben und nichts wurde abgebucht. Die Zeiten sind wieder frei: Du kannst erneut bestellen.`,
      },
      reminder: {
        subject: (code) => `Dein Shout läuft bald (${code})`,
        heading: 'Dein Shout läuft bald',
        intro: (event) =>
          `Mach dich bereit: Dein Shout für ${event} läuft gleich auf dem Bildschirm.`,
      },
      played: {
        subject: (code) => `Dein Shout ist gelaufen (${code})`,
        heading: 'Dein Shout ist gelaufen',
        intro: (event) =>
          `Dein Shout für ${event} ist gelaufen. Hier siehst du, wann der Bildschirm ihn zeigte.`,
      },
      erased: {
        subject: (code) => `Deine persönlichen Daten sind vergessen (${code})`,
        heading: 'Deine persönlichen Daten sind vergessen',
        intro: (event) =>
          `Wie gewünscht haben wir dein Foto oder Video, deine Nachricht und deine Kontaktdaten (Name, E-Mail-Adresse, Telefonnummer) aus deiner Bestellung für ${event} gelöscht und die gesendeten E-Mails geleert. Das ist die letzte E-Mail dazu.`,
      },
      make_good: {
        subject: (code) => `Dein Shout lief nicht jedes Mal: deine Erstattung (${code})`,
        heading: 'Dein Shout lief nicht jedes Mal',
        intro: (event) =>
          `Der Bildschirm hat deinen Shout für ${event} nicht bei jeder geplanten Ausstrahlung gezeigt. Ausstrahlungen, die nicht stattfanden, zahlst du nicht: ihr Anteil an deiner Zahlung wird deiner Karte erstattet.`,
      },
    },
    greeting: (name) => `Hallo ${name},`,
    code: 'Bestätigungscode',
    billboard: 'Bildschirm',
    times: 'Zeiten',
    timeZone: (zone) => `Zeiten in der Zeitzone des Bildschirms (${zone}).`,
    total: 'Gesamt',
    reason: 'Grund',
    refunded: 'Erstattet',
    firstPlay: (minutes) => `Erste Ausstrahlung in etwa ${minutes} Minuten`,
    plays: 'Gelaufen um',
    noPlays: 'Der Bildschirm hat seine Ausstrahlungen nicht gemeldet.',
    playedCount: 'Gelaufen',
    playedOf: (proven, due) => `${proven} von ${due} Ausstrahlungen`,
    missed: 'Nicht gelaufen',
    missedSlot: (time, missed, of) => `${time}: ${missed} von ${of} Ausstrahlungen`,
    contentAlt: (event) => `Dein Shout für ${event}`,
    seeOrder: 'Deine Bestellung ansehen',
    calendarNote: 'Die angehängte Kalenderdatei (.ics) trägt deine Zeiten in deinen Kalender ein.',
    calendarSummary: (event) => `Dein Shout bei ${event}`,
    footer: 'Shouts: deine Nachricht auf dem großen Bildschirm.',
    forgetData: 'Meine Daten vergessen',
    kept: 'Wir behalten, was die Buchhaltung braucht, ohne deinen Namen: den Bestätigungscode, den Bildschirm, die gebuchten Zeiten, den bezahlten oder erstatteten Betrag und die Nachweise der Ausstrahlung. Das Buchführungsrecht verpflichtet uns, diese Belege aufzubewahren.',
  },
}
