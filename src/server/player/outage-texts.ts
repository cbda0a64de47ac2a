import type { Locale } from '../../domain/locale.ts'

// What the admins' billboard alerts say, per operator language (operators.locale).

export type OutageTexts = {
  offline: { subject: (place: string) => string; heading: string; intro: (place: string) => string }
  online: { subject: (place: string) => string; heading: string; intro: (place: string) => string }
  greeting: string
  billboard: string
  lastReport: string
  playsAhead: string
  dark: string
  missed: string
  duration: (minutes: number) => string
  button: string
  footer: string
}

const hm = (minutes: number, h: string, min: string) =>
  minutes >= 60 ? `${Math.floor(minutes / 60)} ${h} ${minutes % 60} ${min}` : `${minutes} ${min}`

export const OUTAGE_TEXTS: Record<Locale, OutageTexts> = {
  en: {
    offline: {
      subject: (place) => `Billboard offline: ${place}`,
      heading: 'A billboard stopped reporting',
      intro: (place) =>
        `${place} has stopped reporting, and it has sold plays in the next hour. Check its player and its connection.`,
    },
    online: {
      subject: (place) => `Billboard back online: ${place}`,
      heading: 'The billboard is back',
      intro: (place) => `${place} reports again.`,
    },
    greeting: 'Hello,',
    billboard: 'Billboard',
    lastReport: 'Last report',
    playsAhead: 'Sold plays in the next hour',
    dark: 'Dark for',
    missed: 'Sold plays missed',
    duration: (minutes) => hm(minutes, 'h', 'min'),
    button: 'Open the Billboards page',
    footer: 'Shouts console: sent to every admin.',
  },
  fr: {
    offline: {
      subject: (place) => `Écran hors ligne : ${place}`,
      heading: 'Un écran ne répond plus',
      intro: (place) =>
        `${place} ne donne plus de nouvelles, et des diffusions vendues l’attendent dans l’heure. Vérifiez son lecteur et sa connexion.`,
    },
    online: {
      subject: (place) => `Écran de nouveau en ligne : ${place}`,
      heading: 'L’écran est de retour',
      intro: (place) => `${place} donne de nouveau des nouvelles.`,
    },
    greeting: 'Bonjour,',
    billboard: 'Écran',
    lastReport: 'Dernier signal',
    playsAhead: 'Diffusions vendues dans l’heure',
    dark: 'Éteint pendant',
    missed: 'Diffusions vendues manquées',
    duration: (minutes) => hm(minutes, 'h', 'min'),
    button: 'Ouvrir la page Écrans',
    footer: 'Console Shouts : envoyé à chaque administrateur.',
  },
  de: {
    offline: {
      subject: (place) => `Bildschirm offline: ${place}`,
      heading: 'Ein Bildschirm meldet sich nicht mehr',
      intro: (place) =>
        `${place} meldet sich nicht mehr, und in der nächsten Stunde sind verkaufte Ausstrahlungen geplant. Bitte Player und Verbindung prüfen.`,
    },
    online: {
      subject: (place) => `Bildschirm wieder online: ${place}`,
      heading: 'Der Bildschirm ist zurück',
      intro: (place) => `${place} meldet sich wieder.`,
    },
    greeting: 'Hallo,',
    billboard: 'Bildschirm',
    lastReport: 'Letzte Meldung',
    playsAhead: 'Verkaufte Ausstrahlungen in der nächsten Stunde',
    dark: 'Dunkel für',
    missed: 'Verpasste verkaufte Ausstrahlungen',
    duration: (minutes) => hm(minutes, 'Std.', 'Min.'),
    button: 'Bildschirm-Seite öffnen',
    footer: 'Shouts-Konsole: an alle Admins gesendet.',
  },
}
