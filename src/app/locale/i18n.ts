import { i18n } from '@lingui/core'

import {
  DEFAULT_LOCALE,
  isLocale,
  LOCALES,
  type Locale,
  localeFromCookies,
  localePrefix,
  preferredLocale,
  splitLocalePath,
  withLocalePrefix,
} from '../../domain/locale'
import { LOCALE_COOKIE as LOCALE_COOKIE_RULE } from '../../domain/storage'

export { DEFAULT_LOCALE, isLocale, type Locale, localePrefix, splitLocalePath, withLocalePrefix }
export const locales = LOCALES

// spec §9: the locale cookie, 365 days, SameSite=Lax, used for the root redirect only.
const LOCALE_COOKIE = LOCALE_COOKIE_RULE.name
const COOKIE_MAX_AGE_S = LOCALE_COOKIE_RULE.maxAgeDays * 24 * 60 * 60

let active: Locale | null = null

/** The locale whose catalog is loaded now (the URL prefix it writes is taken from it). */
export function currentLocale(): Locale {
  return active ?? DEFAULT_LOCALE
}

type Messages = import('@lingui/core').Messages
type Part = () => Promise<{ messages: Messages }>

// Only the active locale's catalog is loaded (conventions §6), and of it first only what the first
// screens show (vite.config.ts builds each catalog in two parts, src/locale/catalog-parts.ts
// says which messages go where). The rest comes before a later screen renders (loadWholeCatalog).
const firstParts: Record<Locale, Part> = {
  en: () => import('../../locale/locales/en/messages.po?first'),
  fr: () => import('../../locale/locales/fr/messages.po?first'),
  de: () => import('../../locale/locales/de/messages.po?first'),
}
const restParts: Record<Locale, Part> = {
  en: () => import('../../locale/locales/en/messages.po?rest'),
  fr: () => import('../../locale/locales/fr/messages.po?rest'),
  de: () => import('../../locale/locales/de/messages.po?rest'),
}

/** A locale's whole catalog (the server's renders, a language chosen on a later screen). */
export async function catalogOf(locale: Locale): Promise<Messages> {
  const [first, rest] = await Promise.all([firstParts[locale](), restParts[locale]()])
  return { ...first.messages, ...rest.messages }
}

// Once a screen has needed the whole catalog, a language chosen later is loaded whole at once.
let whole = false
const wholeLoaded = new Set<Locale>()

/** The browser's i18n (the server makes one per request: src/app/entry-server.tsx). */
export async function activateLocale(locale: Locale): Promise<void> {
  if (active === locale && i18n.locale === locale) return
  const loadWhole = whole
  const messages = loadWhole ? await catalogOf(locale) : (await firstParts[locale]()).messages
  i18n.loadAndActivate({ locale, messages })
  if (loadWhole) wholeLoaded.add(locale)
  else wholeLoaded.delete(locale)
  active = locale
  setPageLanguage(locale)
}

/**
 * spec §2: the page's language attribute follows the current locale. Written only when it differs:
 * writing <html lang>, even the same value, makes Chrome restyle every element of the page (the
 * :lang() state of each one), which the trace of the location step showed twice after hydration,
 * ~200 elements each time (`npm run trace`).
 */
export function setPageLanguage(locale: string): void {
  if (document.documentElement.lang !== locale) document.documentElement.lang = locale
}

/**
 * The rest of the active language's catalog, before something outside the first screens renders:
 * a later step (the root route waits for it), a modal, the footer, an error page. Once per language;
 * from then on every language is loaded whole.
 */
export async function loadWholeCatalog(): Promise<void> {
  // the server's i18n is per request, with its whole catalog
  if (import.meta.env.SSR) return
  whole = true
  const locale = currentLocale()
  if (wholeLoaded.has(locale)) return
  const { messages } = await restParts[locale]()
  if (wholeLoaded.has(locale) || i18n.locale !== locale) return
  i18n.load(locale, messages)
  wholeLoaded.add(locale)
}

/** A lazy component whose texts are in the rest of the catalog: its code and those texts together.
 * Texts that cannot come (offline, not kept) never keep the component from showing. */
export function withWholeCatalog<T>(load: () => Promise<T>): () => Promise<T> {
  return async () => (await Promise.all([load(), loadWholeCatalog().catch(() => undefined)]))[0]
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
