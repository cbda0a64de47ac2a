import { i18n } from '@lingui/core'

export const locales = ['en', 'fr', 'de'] as const
export type Locale = (typeof locales)[number]
export const DEFAULT_LOCALE: Locale = 'en'

// spec §9: the locale cookie, 365 days, SameSite=Lax, used for the root redirect only.
export const LOCALE_COOKIE = 'i18n_redirected'
const COOKIE_MAX_AGE_S = 365 * 24 * 60 * 60

export function isLocale(value: unknown): value is Locale {
  return typeof value === 'string' && (locales as readonly string[]).includes(value)
}

let active: Locale | null = null

/** The locale whose catalog is loaded now (the URL prefix it writes is taken from it). */
export function currentLocale(): Locale {
  return active ?? DEFAULT_LOCALE
}

// Only the active locale's catalog is loaded (conventions §6).
const loaders: Record<Locale, () => Promise<{ messages: import('@lingui/core').Messages }>> = {
  en: () => import('./locales/en/messages.po'),
  fr: () => import('./locales/fr/messages.po'),
  de: () => import('./locales/de/messages.po'),
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

/** The locale a public path is written in, and the path without its prefix. */
export function splitLocalePath(pathname: string): { locale: Locale; path: string } {
  const match = /^\/(fr|de)(?=\/|$)/.exec(pathname)
  if (!match) return { locale: DEFAULT_LOCALE, path: pathname }
  const locale = match[1] as Locale
  const rest = pathname.slice(match[0].length)
  return { locale, path: rest === '' ? '/' : rest }
}

export function withLocalePrefix(path: string, locale: Locale): string {
  const prefix = localePrefix(locale)
  if (!prefix) return path
  return path === '/' ? prefix : `${prefix}${path}`
}

export function readLocaleCookie(): Locale | null {
  const match = /(?:^|;\s*)i18n_redirected=([^;]*)/.exec(document.cookie)
  const value = match?.[1] ? decodeURIComponent(match[1]) : null
  return isLocale(value) ? value : null
}

export function writeLocaleCookie(locale: Locale): void {
  // biome-ignore lint/suspicious/noDocumentCookie: a plain cookie is what the spec names (§9)
  document.cookie = `${LOCALE_COOKIE}=${locale}; Max-Age=${COOKIE_MAX_AGE_S}; Path=/; SameSite=Lax`
}

/** The first of the browser's preferred languages that the shop speaks. */
export function detectBrowserLocale(languages: readonly string[] = navigator.languages): Locale {
  for (const tag of languages) {
    const base = tag.toLowerCase().split('-')[0]
    if (isLocale(base)) return base
  }
  return DEFAULT_LOCALE
}

export { i18n }
