import { eventSlugFromPath, splitLocalePath } from '../../domain/locale'

// Resume: the installed app opens at its start URL ('/?source=pwa', vite.config.ts).
// The last step route the shopper saw is remembered, with its locale prefix, for the order data
// lifetime (spec §9: 60 min); opening the start URL within it goes back to that step. The stores
// themselves restore what was entered (stores/persist.ts), with the same lifetimes.

export const LAST_ROUTE_KEY = 'shouts:last-route'
export const LAST_LOCALE_KEY = 'shouts:last-locale'

export type LastRoute = { path: string; savedAt: number }

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

/**
 * Where the app should open instead of the current URL, or null to stay. Only the start URL of
 * the installed app (and its live-event shortcut) is redirected; a link the shopper followed wins.
 * The code that decides is loaded only then (./start-redirect.ts): no first screen needs it.
 */
export async function startRedirect(location: Location): Promise<string | null> {
  if (location.pathname !== '/' || !new URLSearchParams(location.search).has('source')) return null
  return (await import('./start-redirect')).startUrlTarget(new URLSearchParams(location.search))
}
