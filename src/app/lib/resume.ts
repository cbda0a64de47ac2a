import { spotlight } from '../../contract/spotlight'
import { DEFAULT_LOCALE, eventSlugFromPath, isLocale, splitLocalePath } from '../../domain/locale'
import { isFresh, TTL } from '../../domain/storage'
import { withLocalePrefix } from '../locale/i18n'
import { callApi } from './api'

// Resume: the installed app opens at its start URL ('/?source=pwa', vite.config.ts).
// The last step route the shopper saw is remembered, with its locale prefix, for the order data
// lifetime (spec §9: 60 min); opening the start URL within it goes back to that step. The stores
// themselves restore what was entered (stores/persist.ts), with the same lifetimes.

const LAST_ROUTE_KEY = 'shouts:last-route'
const LAST_LOCALE_KEY = 'shouts:last-locale'

type LastRoute = { path: string; savedAt: number }

export function rememberRoute(pathname: string, search: string): void {
  try {
    localStorage.setItem(LAST_LOCALE_KEY, splitLocalePath(pathname).locale)
    if (eventSlugFromPath(pathname) === null) return
    const entry: LastRoute = { path: pathname + search, savedAt: Date.now() }
    localStorage.setItem(LAST_ROUTE_KEY, JSON.stringify(entry))
  } catch {
    // storage unavailable (private mode): nothing to resume, the flow still works
  }
}

export function lastRoute(now = Date.now()): string | null {
  try {
    const raw = localStorage.getItem(LAST_ROUTE_KEY)
    if (!raw) return null
    const entry = JSON.parse(raw) as Partial<LastRoute>
    if (typeof entry.path !== 'string' || typeof entry.savedAt !== 'number') return null
    if (
      !isFresh({ savedAt: entry.savedAt, ttlMs: TTL.orderData }, now) ||
      !entry.path.startsWith('/')
    ) {
      localStorage.removeItem(LAST_ROUTE_KEY)
      return null
    }
    return entry.path
  } catch {
    return null
  }
}

/**
 * Where the app should open instead of the current URL, or null to stay. Only the start URL of
 * the installed app (and its live-event shortcut) is redirected; a link the shopper followed wins.
 */
export async function startRedirect(location: Location): Promise<string | null> {
  if (location.pathname !== '/') return null
  const params = new URLSearchParams(location.search)
  if (!params.has('source')) return null
  if (params.get('shortcut') === 'live') {
    try {
      const { events } = await callApi(spotlight.liveEvents, {})
      const slug = events[0]?.slug
      if (slug !== undefined) return `/${encodeURIComponent(slug)}`
    } catch {
      // offline: fall through to the last step or home
    }
  }
  const resume = lastRoute()
  if (resume) return resume
  try {
    const locale = localStorage.getItem(LAST_LOCALE_KEY)
    if (isLocale(locale) && locale !== DEFAULT_LOCALE) return withLocalePrefix('/', locale)
  } catch {
    // no storage: English home
  }
  return '/'
}
