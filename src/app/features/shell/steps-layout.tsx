import { Outlet, useRouter, useRouterState } from '@tanstack/react-router'
import { useEffect } from 'react'
import { loadWhenIdle } from '../../lib/idle'

/**
 * The order flow's steps. spec §9 link prefetch: on the venue's weak network the next step's code is
 * fetched while the shopper reads this one, once the page has been idle, instead of only when a link
 * is hovered (router.tsx's 'intent' preload, which a phone seldom triggers); lib/prefetch.ts says
 * which step and when not to.
 */
export function StepsLayout() {
  const router = useRouter()
  const href = useRouterState({ select: (s) => s.location.href })
  useEffect(() => {
    void href
    let left = false
    loadWhenIdle(() => import('../../lib/prefetch')).then(
      (prefetch) => {
        if (!left) prefetch.prefetchNextStep(router)
      },
      // offline before the service worker holds the app: nothing to prefetch with
      () => undefined,
    )
    return () => {
      left = true
    }
  }, [href, router])
  return <Outlet />
}
