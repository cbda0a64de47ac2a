import { i18n } from '@lingui/core'

export const locales = ['en', 'fr', 'de'] as const
export type Locale = (typeof locales)[number]

// Only the active locale's catalog is loaded (conventions §6).
export async function activateLocale(locale: Locale): Promise<void> {
  const { messages } = await import(`./locales/${locale}/messages.po`)
  i18n.loadAndActivate({ locale, messages })
  document.documentElement.lang = locale
}

export { i18n }
