import { type AnyRouter, useRouter, useRouterState } from '@tanstack/react-router'
import { useEffect } from 'react'
import { LINK_PREFETCH_IDLE_MS, mayPrefetch } from '../../domain/prefetch'
import { splitLocalePath } from '../locale/i18n'
import { afterIdle } from './idle'
import { STEP_PATHS } from './steps'

// spec §9 link prefetch: on the venue's weak network the next step's code is fetched
// while the shopper reads this one, after 2 s of idle time, instead of only when a link is hovered
// (router.tsx's 'intent' preload, which a phone seldom triggers). Never offline, on 2g or with data
// saving on. The preload runs the route's guards in preload mode, so it never redirects. The steps
// after the first use the hook; the location step, the first screen (its code budget),
// loads this module itself once idle and calls prefetchNextStep.

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

/** Preloads the next step's code once this step has been idle for 2 s. */
export function usePrefetchNextStep(): void {
  const router = useRouter()
  const href = useRouterState({ select: (s) => s.location.href })
  useEffect(() => {
    void href
    let left = false
    void afterIdle(LINK_PREFETCH_IDLE_MS).then(() => {
      if (!left) prefetchNextStep(router)
    })
    return () => {
      left = true
    }
  }, [href, router])
}
