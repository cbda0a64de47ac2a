import { spotlight } from '../../contract/catalogue'
import { DEFAULT_LOCALE, isLocale } from '../../domain/locale'
import { isFresh, TTL } from '../../domain/storage'
import { withLocalePrefix } from '../locale/i18n'
import { callApi } from './api'
import { LAST_LOCALE_KEY, LAST_ROUTE_KEY, type LastRoute } from './resume'

/** The last step route remembered (./resume.ts), while it is fresh (spec §9: the order data's 60 min). */
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

/** Where the installed app's start URL opens: the live event (its shortcut; the home page when
 * several are live), else the last step, else the home page in the last language used. */
export async function startUrlTarget(params: URLSearchParams): Promise<string> {
  if (params.get('shortcut') === 'live') {
    try {
      const { events } = await callApi(spotlight.liveEvents, {})
      // one live event: straight to it; several: the home page, which lists them
      const slug = events.length === 1 ? events[0]?.slug : undefined
      if (slug !== undefined) return `/${encodeURIComponent(slug)}`
      if (events.length > 1) return homeInLastLocale()
    } catch {
      // offline: fall through to the last step or home
    }
  }
  const resume = lastRoute()
  if (resume) return resume
  return homeInLastLocale()
}

/** The home page in the last language used. */
function homeInLastLocale(): string {
  try {
    const locale = localStorage.getItem(LAST_LOCALE_KEY)
    if (isLocale(locale) && locale !== DEFAULT_LOCALE) return withLocalePrefix('/', locale)
  } catch {
    // no storage: English home
  }
  return '/'
}
