import type { Locale } from '../../domain/locale.ts'

// The sentences of the mails of a campaign's life (mails-campaigns.ts), per language: booked,
// approved, on air, each day's receipt, completed. A typed table, as mail-texts.ts: a language that
// misses a sentence fails the typecheck.

type Texts = {
  booked: {
    subject: (campaign: string) => string
    heading: string
    intro: (campaign: string) => string
    review: string
  }
  approved: {
    subject: (campaign: string) => string
    heading: string
    intro: (campaign: string, start: string) => string
  }
  live: {
    subject: (campaign: string) => string
    heading: string
    intro: (campaign: string, billboard: string, at: string) => string
    receipts: string
  }
  receipt: {
    subject: (campaign: string, day: string) => string
    heading: string
    intro: (campaign: string, day: string) => string
    line: (plays: string, impressions: string, amount: string) => string
    total: string
    capped: string
  }
  completed: {
    subject: (campaign: string) => string
    heading: string
    flightEnded: (campaign: string) => string
    budgetSpent: (campaign: string) => string
    plays: string
    impressions: string
    spent: string
    budget: string
  }
  /** Rows common to several mails. */
  flight: string
  budget: string
  billboards: string
  button: string
}

export const CAMPAIGN_MAIL_TEXTS: Record<Locale, Texts> = {
  en: {
    booked: {
      subject: (c) => `Your campaign "${c}" is booked`,
      heading: 'Your campaign is booked',
      intro: (c) =>
        `Thank you: the plays of your campaign "${c}" are reserved for you. Your card is charged each day only for the plays the billboards prove.`,
      review: 'We now review your ad; we write to you again once it is approved.',
    },
    approved: {
      subject: (c) => `Your campaign "${c}" is approved`,
      heading: 'Your ad is approved',
      intro: (c, start) =>
        `We reviewed the ad of your campaign "${c}": it will play on our billboards from ${start}.`,
    },
    live: {
      subject: (c) => `Your campaign "${c}" is on air`,
      heading: 'Your campaign is on air',
      intro: (c, billboard, at) =>
        `The first play of your campaign "${c}" was proven by the billboard ${billboard} at ${at}.`,
      receipts: 'You will receive a receipt each day for the plays proven that day.',
    },
    receipt: {
      subject: (c, day) => `Your receipt for "${c}", ${day}`,
      heading: 'Your daily receipt',
      intro: (c, day) =>
        `We charged your card for the proven plays of your campaign "${c}" on ${day}:`,
      line: (plays, impressions, amount) => `${plays} plays, ${impressions} impressions, ${amount}`,
      total: 'Charged',
      capped: 'This charge reaches your budget: the plays beyond it are not charged.',
    },
    completed: {
      subject: (c) => `Your campaign "${c}" is completed`,
      heading: 'Your campaign is completed',
      flightEnded: (c) => `The flight of your campaign "${c}" has ended. Here is what it reached.`,
      budgetSpent: (c) =>
        `The budget of your campaign "${c}" is spent, so it stopped playing. Here is what it reached.`,
      plays: 'Proven plays',
      impressions: 'Impressions',
      spent: 'Charged in all',
      budget: 'Budget',
    },
    flight: 'Flight',
    budget: 'Budget',
    billboards: 'Billboards',
    button: 'See the campaign',
  },
  fr: {
    booked: {
      subject: (c) => `Votre campagne « ${c} » est réservée`,
      heading: 'Votre campagne est réservée',
      intro: (c) =>
        `Merci : les diffusions de votre campagne « ${c} » vous sont réservées. Votre carte n'est débitée chaque jour que des diffusions prouvées par les panneaux.`,
      review:
        'Nous examinons maintenant votre publicité ; nous vous écrirons dès qu’elle sera approuvée.',
    },
    approved: {
      subject: (c) => `Votre campagne « ${c} » est approuvée`,
      heading: 'Votre publicité est approuvée',
      intro: (c, start) =>
        `Nous avons examiné la publicité de votre campagne « ${c} » : elle sera diffusée sur nos panneaux à partir du ${start}.`,
    },
    live: {
      subject: (c) => `Votre campagne « ${c} » est à l’antenne`,
      heading: 'Votre campagne est à l’antenne',
      intro: (c, billboard, at) =>
        `La première diffusion de votre campagne « ${c} » a été prouvée par le panneau ${billboard} le ${at}.`,
      receipts: 'Vous recevrez chaque jour un reçu des diffusions prouvées ce jour-là.',
    },
    receipt: {
      subject: (c, day) => `Votre reçu pour « ${c} », ${day}`,
      heading: 'Votre reçu du jour',
      intro: (c, day) =>
        `Nous avons débité votre carte pour les diffusions prouvées de votre campagne « ${c} » du ${day} :`,
      line: (plays, impressions, amount) =>
        `${plays} diffusions, ${impressions} impressions, ${amount}`,
      total: 'Débité',
      capped: 'Ce débit atteint votre budget : les diffusions au-delà ne sont pas débitées.',
    },
    completed: {
      subject: (c) => `Votre campagne « ${c} » est terminée`,
      heading: 'Votre campagne est terminée',
      flightEnded: (c) =>
        `La période de votre campagne « ${c} » est terminée. Voici ce qu’elle a atteint.`,
      budgetSpent: (c) =>
        `Le budget de votre campagne « ${c} » est dépensé : elle n’est plus diffusée. Voici ce qu’elle a atteint.`,
      plays: 'Diffusions prouvées',
      impressions: 'Impressions',
      spent: 'Débité au total',
      budget: 'Budget',
    },
    flight: 'Période',
    budget: 'Budget',
    billboards: 'Panneaux',
    button: 'Voir la campagne',
  },
  de: {
    booked: {
      subject: (c) => `Ihre Kampagne „${c}“ ist gebucht`,
      heading: 'Ihre Kampagne ist gebucht',
      intro: (c) =>
        `Danke: Die Ausspielungen Ihrer Kampagne „${c}“ sind für Sie reserviert. Ihre Karte wird jeden Tag nur für die Ausspielungen belastet, die die Werbetafeln nachweisen.`,
      review:
        'Wir prüfen jetzt Ihre Werbung; wir schreiben Ihnen wieder, sobald sie freigegeben ist.',
    },
    approved: {
      subject: (c) => `Ihre Kampagne „${c}“ ist freigegeben`,
      heading: 'Ihre Werbung ist freigegeben',
      intro: (c, start) =>
        `Wir haben die Werbung Ihrer Kampagne „${c}“ geprüft: Sie läuft ab ${start} auf unseren Werbetafeln.`,
    },
    live: {
      subject: (c) => `Ihre Kampagne „${c}“ läuft`,
      heading: 'Ihre Kampagne läuft',
      intro: (c, billboard, at) =>
        `Die erste Ausspielung Ihrer Kampagne „${c}“ wurde von der Werbetafel ${billboard} am ${at} nachgewiesen.`,
      receipts:
        'Sie erhalten jeden Tag einen Beleg über die an diesem Tag nachgewiesenen Ausspielungen.',
    },
    receipt: {
      subject: (c, day) => `Ihr Beleg für „${c}“, ${day}`,
      heading: 'Ihr Tagesbeleg',
      intro: (c, day) =>
        `Wir haben Ihre Karte für die nachgewiesenen Ausspielungen Ihrer Kampagne „${c}“ am ${day} belastet:`,
      line: (plays, impressions, amount) =>
        `${plays} Ausspielungen, ${impressions} Kontakte, ${amount}`,
      total: 'Belastet',
      capped:
        'Diese Belastung erreicht Ihr Budget: Ausspielungen darüber hinaus werden nicht berechnet.',
    },
    completed: {
      subject: (c) => `Ihre Kampagne „${c}“ ist abgeschlossen`,
      heading: 'Ihre Kampagne ist abgeschlossen',
      flightEnded: (c) => `Der Zeitraum Ihrer Kampagne „${c}“ ist zu Ende. Das hat sie erreicht.`,
      budgetSpent: (c) =>
        `Das Budget Ihrer Kampagne „${c}“ ist ausgeschöpft, sie wird nicht mehr ausgespielt. Das hat sie erreicht.`,
      plays: 'Nachgewiesene Ausspielungen',
      impressions: 'Kontakte',
      spent: 'Insgesamt belastet',
      budget: 'Budget',
    },
    flight: 'Zeitraum',
    budget: 'Budget',
    billboards: 'Werbetafeln',
    button: 'Kampagne ansehen',
  },
}
