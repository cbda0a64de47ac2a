import type { ShoutEvent } from '../../../contract/catalogue'

/** The first and last day of each event, as the home page's cards read them ("November 29"). */
export type EventDays = { locale: string; bySlug: Record<string, readonly [string, string]> }

/**
 * Formatted where the home page's data is loaded: on the server for a first visit, so that the
 * browser does not build its first Intl.DateTimeFormat while it hydrates the page (ICU's date data:
 * 80-200 ms of the main thread at 4x CPU, one long task on its own).
 */
export function eventDays(events: readonly ShoutEvent[], locale: string): EventDays {
  const format = new Intl.DateTimeFormat(locale, { month: 'long', day: 'numeric' })
  const day = (value: string) => {
    const [date = ''] = value.split('_')
    return format.format(new Date(`${date}T12:00:00`))
  }
  return {
    locale,
    bySlug: Object.fromEntries(
      events.map((e) => [
        e.slug,
        [day(e.startDateHourLocalInclusive), day(e.endDateHourLocalExclusive)] as const,
      ]),
    ),
  }
}
