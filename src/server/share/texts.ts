import type { Locale } from '../../domain/locale.ts'

// Every sentence the keepsake page says, per language (as push/texts.ts: the server has no Lingui;
// a language missing a sentence fails the typecheck). `day` and `time` are the billboard's local
// day and time as the language writes them.

export type KeepsakeTexts = {
  /** The page's title and the link preview's. */
  title: (place: string) => string
  /** The preview's description. */
  description: (event: string, place: string) => string
  heading: string
  alt: (place: string) => string
  event: (event: string) => string
  played: (count: number, day: string, time: string) => string
  upcoming: (day: string, time: string) => string
  makeYourOwn: string
  gone: string
  goneText: string
  home: string
}

export const KEEPSAKE_TEXTS: Record<Locale, KeepsakeTexts> = {
  en: {
    title: (place) => `A shout on the billboard at ${place}`,
    description: (event, place) => `${event}: a message on the big screen at ${place}.`,
    heading: 'On the big screen',
    alt: (place) => `The message shown on the billboard at ${place}`,
    event: (event) => `For ${event}`,
    played: (count, day, time) =>
      count === 1
        ? `Played once on ${day}, at ${time}`
        : `Played ${count} times on ${day}, first at ${time}`,
    upcoming: (day, time) => `Plays on ${day} at ${time}`,
    makeYourOwn: 'Make your own shout',
    gone: 'This page is no longer shared',
    goneText: 'Its owner stopped sharing it, or it is gone.',
    home: 'See what you can put on a billboard',
  },
  fr: {
    title: (place) => `Un shout sur l’écran de ${place}`,
    description: (event, place) => `${event} : un message sur le grand écran de ${place}.`,
    heading: 'Sur le grand écran',
    alt: (place) => `Le message affiché sur l’écran de ${place}`,
    event: (event) => `Pour ${event}`,
    played: (count, day, time) =>
      count === 1
        ? `Diffusé une fois le ${day}, à ${time}`
        : `Diffusé ${count} fois le ${day}, d’abord à ${time}`,
    upcoming: (day, time) => `Diffusé le ${day} à ${time}`,
    makeYourOwn: 'Créez votre shout',
    gone: 'Cette page n’est plus partagée',
    goneText: 'Son auteur a cessé de la partager, ou elle n’existe plus.',
    home: 'Voir ce que vous pouvez afficher sur un écran',
  },
  de: {
    title: (place) => `Ein Shout auf dem Bildschirm am ${place}`,
    description: (event, place) =>
      `${event}: eine Botschaft auf dem großen Bildschirm am ${place}.`,
    heading: 'Auf dem großen Bildschirm',
    alt: (place) => `Die Botschaft auf dem Bildschirm am ${place}`,
    event: (event) => `Zu ${event}`,
    played: (count, day, time) =>
      count === 1
        ? `Einmal gelaufen am ${day}, um ${time}`
        : `${count}-mal gelaufen am ${day}, zuerst um ${time}`,
    upcoming: (day, time) => `Läuft am ${day} um ${time}`,
    makeYourOwn: 'Mach deinen eigenen Shout',
    gone: 'Diese Seite wird nicht mehr geteilt',
    goneText: 'Sie wird nicht mehr geteilt, oder es gibt sie nicht mehr.',
    home: 'Sieh dir an, was du auf einen Bildschirm bringen kannst',
  },
}

const LANGUAGE_TAGS: Record<Locale, string> = { en: 'en-US', fr: 'fr-FR', de: 'de-DE' }

/** "Friday, November 27" and "6:01 PM" on the billboard's clock, as the language writes them. */
export function localDayAndTime(
  locale: Locale,
  epochMs: number,
  timeZoneId: string,
): { day: string; time: string } {
  const tag = LANGUAGE_TAGS[locale]
  return {
    day: new Intl.DateTimeFormat(tag, {
      weekday: 'long',
      day: 'numeric',
      month: 'long',
      timeZone: timeZoneId,
    }).format(epochMs),
    time: new Intl.DateTimeFormat(tag, { timeStyle: 'short', timeZone: timeZoneId }).format(
      epochMs,
    ),
  }
}
