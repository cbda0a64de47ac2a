import type { Messages } from '@lingui/core'
import { currentLocale, i18n, type Locale } from '../locale/i18n'

// The console's texts are a catalog of their own (lingui.config.ts), a chunk per language
// that only the console loads; merged into the active language's messages, beside the shop's.
const catalogs: Record<Locale, () => Promise<{ messages: Messages }>> = {
  en: () => import('../../locale/ops/en/messages.po'),
  fr: () => import('../../locale/ops/fr/messages.po'),
  de: () => import('../../locale/ops/de/messages.po'),
}

// Switching languages replaces the active messages (activateLocale); the console's are merged
// again into each new set, once.
const merged = new WeakSet<object>()

/** Loads the console's catalog of the active language (the console's route waits for it). */
export async function loadOpsCatalog(): Promise<void> {
  const locale = currentLocale()
  if (merged.has(i18n.messages)) return
  const { messages } = await catalogs[locale]()
  if (i18n.locale !== locale) return
  i18n.load(locale, messages)
  merged.add(i18n.messages)
}
