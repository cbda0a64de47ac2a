import type { OrderSummary } from '../../contract/index.ts'
import type { Locale } from '../../domain/locale.ts'
import type { SlotMakeGood } from '../../domain/make-good.ts'
import { say } from '../platform/i18n.ts'
import { MAIL_MESSAGES as M } from './messages.ts'

/**
 * What a make-good mail lists: the plays proven of those due ("7 of 8 plays"), and each slot that
 * missed plays at its start in the billboard's zone ("Nov 27, 2026, 9:15 PM: 1 of 4 plays").
 */
export function makeGoodLines(
  summary: Pick<OrderSummary, 'device' | 'slots' | 'playsPerSlot'>,
  locale: Locale,
  made: { playsDue: number; playsProven: number; slots: readonly SlotMakeGood[] },
): { played: string; missed: string[] } {
  const format = new Intl.DateTimeFormat({ en: 'en-US', fr: 'fr-FR', de: 'de-DE' }[locale], {
    dateStyle: 'medium',
    timeStyle: 'short',
    timeZone: summary.device.timeZoneId,
  })
  const starts = new Map(summary.slots.map((s) => [s.slotNumber, s.startEpochMs]))
  return {
    played: say(locale, M.playedOf, { proven: made.playsProven, due: made.playsDue }),
    missed: made.slots.map((slot) => {
      const start = starts.get(slot.slotNumber)
      const time = start === undefined ? String(slot.slotNumber) : format.format(start)
      return say(locale, M.missedSlot, {
        time,
        missed: slot.missedPlayIndexes.length,
        of: summary.playsPerSlot,
      })
    }),
  }
}
