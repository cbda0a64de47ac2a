import { i18n } from '@lingui/core'

import {
  DEFAULT_LOCALE,
  isLocale,
  LOCALES,
  type Locale,
  localeFromCookies,
  preferredLocale,
  splitLocalePath,
} from '../../domain/locale'
import { LOCALE_COOKIE as LOCALE_COOKIE_RULE } from '../../domain/storage'

export { DEFAULT_LOCALE, isLocale, type Locale, splitLocalePath }
export const locales = LOCALES

// spec §9: the locale cookie, 365 days, SameSite=Lax, used for the root redirect only.
const LOCALE_COOKIE = LOCALE_COOKIE_RULE.name
const COOKIE_MAX_AGE_S = LOCALE_COOKIE_RULE.maxAgeDays * 24 * 60 * 60

let active: Locale | null = null

/** The locale whose catalog is loaded now (the URL prefix it writes is taken from it). */
export function currentLocale(): Locale {
  return active ?? DEFAULT_LOCALE
}

// Only the active locale's catalog is loaded (conventions §6).
const loaders: Record<Locale, () => Promise<{ messages: import('@lingui/core').Messages }>> = {
  en: () => import('../../locale/locales/en/messages.po'),
  fr: () => import('../../locale/locales/fr/messages.po'),
  de: () => import('../../locale/locales/de/messages.po'),
}

export async function activateLocale(locale: Locale): Promise<void> {
  if (active === locale && i18n.locale === locale) return
  const { messages } = await loaders[locale]()
  i18n.loadAndActivate({ locale, messages })
  active = locale
  // spec §2: the page language attribute follows the current locale
  document.documentElement.lang = locale
}

/** spec §2: English has no prefix, French /fr, German /de. */
export function localePrefix(locale: Locale): string {
  return locale === DEFAULT_LOCALE ? '' : `/${locale}`
}

export function withLocalePrefix(path: string, locale: Locale): string {
  const prefix = localePrefix(locale)
  if (!prefix) return path
  return path === '/' ? prefix : `${prefix}${path}`
}

export function readLocaleCookie(): Locale | null {
  return localeFromCookies(document.cookie)
}

export function writeLocaleCookie(locale: Locale): void {
  // biome-ignore lint/suspicious/noDocumentCookie: a plain cookie is what the spec names (§9)
  document.cookie = `${LOCALE_COOKIE}=${locale}; Max-Age=${COOKIE_MAX_AGE_S}; Path=/; SameSite=Lax`
}

/** The first of the browser's preferred languages that the shop speaks. */
export function detectBrowserLocale(languages: readonly string[] = navigator.languages): Locale {
  return preferredLocale(languages)
}

export { i18n }
