import type { MessageDescriptor } from '@lingui/core'
import { msg } from '@lingui/core/macro'
import type { Daypart } from '../../../contract/advertisers'
import type { CompletionReason } from '../../../domain/campaign-completion'
import { formatMoney } from '../../../domain/money'

/** Why a campaign was completed, as its page says it. */
export const COMPLETED_LABELS: Record<CompletionReason, MessageDescriptor> = {
  flight_ended: msg`Completed: its flight has ended and its last day is settled.`,
  budget_spent: msg`Completed: its budget is spent, so it plays no more.`,
}

// spec §3: the time-of-day bands, with their hours on each billboard's own clock
export const DAYPART_LABELS: Record<Daypart, MessageDescriptor> = {
  EarlyMorning: msg`Early Morning (0–9 h)`,
  Morning: msg`Morning (9–12 h)`,
  Afternoon: msg`Afternoon (12–17 h)`,
  Evening: msg`Evening (17–24 h)`,
}

export const money = (cents: number, currency: string, locale: string) =>
  formatMoney(cents, { currency, locale })

/** A moment in the reader's own time zone (a flight is the same instant on every billboard). */
export const when = (epochMs: number, locale: string) =>
  new Intl.DateTimeFormat(locale, { dateStyle: 'medium', timeStyle: 'short' }).format(epochMs)

export const count = (n: number, locale: string) => new Intl.NumberFormat(locale).format(n)
