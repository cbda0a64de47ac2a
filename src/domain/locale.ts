// spec §2 and §9: the shop's languages, how a path names one, and how the root page picks one (the
// i18n_redirected cookie, else the first of the browser's languages the shop speaks). Used by the app
// (src/app/locale/i18n.ts) and by the server that pre-renders the first screen
// (src/server/platform/ssr.ts).
import { LOCALE_COOKIE } from './storage'

export const LOCALES = ['en', 'fr', 'de'] as const
export type Locale = (typeof LOCALES)[number]
export const DEFAULT_LOCALE: Locale = 'en'

export function isLocale(value: unknown): value is Locale {
  return typeof value === 'string' && (LOCALES as readonly string[]).includes(value)
}

/** spec §2: English has no prefix, French /fr, German /de. The locale of a path and the path without it. */
export function splitLocalePath(pathname: string): { locale: Locale; path: string } {
  const match = /^\/(fr|de)(?=\/|$)/.exec(pathname)
  if (!match) return { locale: DEFAULT_LOCALE, path: pathname }
  const rest = pathname.slice(match[0].length)
  return { locale: match[1] as Locale, path: rest === '' ? '/' : rest }
}

/**
 * The event slug an app URL names (/{slug}/..., /fr/{slug}/...), or null for other pages: the home
 * page, event-not-found, the API, files. The service worker warms the events of open pages with it,
 * and the app remembers the step a shopper was on.
 */
// The first path segments that are not events: pages of their own (/play/{deviceId} is a
// billboard's player, whose address carries its token; /ops is the operators' console; /s/{id} a
// keepsake page, the server's own; /account, /campaigns and /proposal the advertisers') and the API.
export const NOT_EVENTS: ReadonlySet<string> = new Set([
  'event-not-found',
  'api',
  'play',
  'ops',
  's',
  'account',
  'campaigns',
  'proposal',
])

export function eventSlugFromPath(pathname: string): string | null {
  const first = splitLocalePath(pathname).path.split('/').filter(Boolean)[0]
  if (!first || NOT_EVENTS.has(first) || first.includes('.')) return null
  return decodeURIComponent(first)
}

/** The locale kept in the i18n_redirected cookie of a Cookie header (or document.cookie), if any. */
export function localeFromCookies(cookies: string | undefined): Locale | null {
  const value = (cookies ?? '')
    .split(';')
    .map((pair) => pair.trim().split('='))
    .find(([name]) => name === LOCALE_COOKIE.name)?.[1]
  let decoded: string | null = null
  try {
    decoded = value ? decodeURIComponent(value) : null
  } catch {
    decoded = null
  }
  return isLocale(decoded) ? decoded : null
}

/** The first of the preferred languages (BCP 47 tags, most preferred first) that the shop speaks. */
export function preferredLocale(languages: readonly string[]): Locale {
  for (const tag of languages) {
    const base = tag.trim().toLowerCase().split('-')[0]
    if (isLocale(base)) return base
  }
  return DEFAULT_LOCALE
}

/** An Accept-Language header's tags, most preferred first (by q, then by order). */
export function acceptedLanguages(header: string | undefined): string[] {
  return (header ?? '')
    .split(',')
    .map((part, index) => {
      const [tag = '', ...params] = part.trim().split(';')
      const q = params.find((p) => p.trim().startsWith('q='))
      return { tag: tag.trim(), q: q ? Number(q.trim().slice(2)) : 1, index }
    })
    .filter((t) => t.tag !== '' && !Number.isNaN(t.q) && t.q > 0)
    .sort((a, b) => b.q - a.q || a.index - b.index)
    .map((t) => t.tag)
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
