import { Outlet, useParams, useRouterState } from '@tanstack/react-router'
import { useEffect } from 'react'

/** The event's pages: the promo of the URL query is looked up here (spec §4). */
export function EventLayout() {
  const { eventslug } = useParams({ from: '/_default/$eventslug' })
  const promo = useRouterState({
    select: (s) => (s.location.search as Record<string, unknown>).promo,
  })
  const promoKey = JSON.stringify(promo ?? null)
  // biome-ignore lint/correctness/useExhaustiveDependencies: promoKey stands for promo
  useEffect(() => {
    // the lookup's code is loaded only for a link that carries a promo
    if (promo === undefined) return
    void import('../../stores/promo').then((m) => m.applyPromoFromQuery(promo, eventslug))
  }, [promoKey, eventslug])
  return <Outlet />
}
