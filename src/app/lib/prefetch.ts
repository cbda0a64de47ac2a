import type { AnyRouter } from '@tanstack/react-router'
import { mayPrefetch } from '../../domain/prefetch'
import { splitLocalePath } from '../locale/i18n'
import { STEP_PATHS } from './steps'

// spec §9 link prefetch: the step after the one shown, its code fetched while the shopper reads this
// one (src/app/features/shell/steps-layout.tsx loads this module once the page has been idle). Never
// offline, on 2g or with data saving on. The preload runs the route's guards in preload mode, so it
// never redirects.

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

/** Preloads the code of the step after the one shown, unless the network says not to. */
export function prefetchNextStep(router: AnyRouter): void {
  const next = nextStepRoute(splitLocalePath(window.location.pathname).path)
  if (!next) return
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
}
