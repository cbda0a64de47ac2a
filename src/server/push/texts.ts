import type { Locale } from '../../domain/locale.ts'
import type { PlayAlertKind } from '../../domain/play-alerts.ts'

// Every sentence a play alert says, per language (as the mails' texts.ts: the server has no Lingui,
// a language missing a sentence fails the typecheck). `time` is the billboard's local time,
// `billboard` its place as the catalogue names it.

type AlertTexts = {
  title: (time: string) => string
  body: (billboard: string, time: string) => string
}

export const PUSH_TEXTS: Record<Locale, Record<PlayAlertKind, AlertTexts>> = {
  en: {
    soon: {
      title: (time) => `Your shout plays at ${time}`,
      body: (billboard) => `On ${billboard} — look up!`,
    },
    played: {
      title: () => 'It played!',
      body: (billboard, time) => `Your shout played at ${time} on ${billboard}.`,
    },
  },
  fr: {
    soon: {
      title: (time) => `Votre shout passe à ${time}`,
      body: (billboard) => `Sur ${billboard} — levez les yeux !`,
    },
    played: {
      title: () => 'Il est passé !',
      body: (billboard, time) => `Votre shout est passé à ${time} sur ${billboard}.`,
    },
  },
  de: {
    soon: {
      title: (time) => `Dein Shout läuft um ${time}`,
      body: (billboard) => `Auf ${billboard} – schau hoch!`,
    },
    played: {
      title: () => 'Er ist gelaufen!',
      body: (billboard, time) => `Dein Shout ist um ${time} auf ${billboard} gelaufen.`,
    },
  },
}

const LANGUAGE_TAGS: Record<Locale, string> = { en: 'en-US', fr: 'fr-FR', de: 'de-DE' }

/** "6:01 PM", "18:01": the instant on the billboard's clock, as the language writes a time. */
export function localTime(locale: Locale, epochMs: number, timeZoneId: string): string {
  return new Intl.DateTimeFormat(LANGUAGE_TAGS[locale], {
    timeStyle: 'short',
    timeZone: timeZoneId,
  }).format(epochMs)
}
