import type { AnyRouter } from '@tanstack/react-router'
import { LINK_PREFETCH_IDLE_MS, mayPrefetch } from '../../domain/prefetch'
import { splitLocalePath } from '../locale/i18n'
import { STEP_PATHS } from './steps'

// spec §9 link prefetch (issue 15): on the venue's weak network the next step's code is fetched
// while the shopper reads this one, after 2 s of idle time, instead of only when a link is hovered
// (router.tsx's 'intent' preload, which a phone seldom triggers). Never offline, on 2g or with data
// saving on. The preload runs the route's guards in preload mode, so it never redirects.

const FLOW = [...Object.values(STEP_PATHS), '/$eventslug/order/confirmation']

type Connection = { saveData?: boolean; effectiveType?: string }

/** The flow's route after the one at this internal path, or null (not a step, or the last). */
export function nextStepRoute(internalPath: string): { to: string; eventslug: string } | null {
  const [slug, ...rest] = internalPath.split('/').filter(Boolean)
  if (!slug || rest.length === 0) return null
  const index = FLOW.indexOf(`/$eventslug/${rest.join('/')}`)
  const next = index >= 0 ? FLOW[index + 1] : undefined
  return next ? { to: next, eventslug: decodeURIComponent(slug) } : null
}

export function prefetchNextSteps(router: AnyRouter): void {
  let timer: ReturnType<typeof setTimeout> | undefined
  const schedule = () => {
    clearTimeout(timer)
    const next = nextStepRoute(splitLocalePath(window.location.pathname).path)
    if (!next) return
    timer = setTimeout(() => {
      const idle = window.requestIdleCallback ?? ((run: () => void) => run())
      idle(() => {
        const connection = (navigator as Navigator & { connection?: Connection }).connection
        const hints = {
          online: navigator.onLine,
          saveData: connection?.saveData,
          effectiveType: connection?.effectiveType,
        }
        if (!mayPrefetch(hints)) return
        void router
          .preloadRoute({ to: next.to, params: { eventslug: next.eventslug } })
          .catch(() => undefined)
      })
    }, LINK_PREFETCH_IDLE_MS)
  }
  router.subscribe('onResolved', schedule)
  // a page the server rendered is hydrated, not loaded: no 'onResolved' for its first route
  schedule()
}
