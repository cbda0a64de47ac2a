import { createFileRoute, Outlet, redirect } from '@tanstack/react-router'
import { STEP_PATHS } from '../../../lib/steps'
import { orderStore } from '../../../stores/order'
import { firstMissingStep } from '../../../stores/step-progress'

export const Route = createFileRoute('/_default/$eventslug/_steps')({
  beforeLoad: ({ params, location, preload }) => {
    // beforeLoad also runs on hover preloads: only a real navigation redirects (conventions §4)
    if (preload) return
    const path = location.pathname
    // State guard: once an order is placed its content and times cannot change (spec §4), so the
    // flow leads to its confirmation.
    if (
      orderStore.orderGuid &&
      orderStore.orderStatus !== 'Failed' &&
      !path.endsWith('/order/confirmation')
    ) {
      throw redirect({
        to: '/$eventslug/order/confirmation',
        params: { eventslug: params.eventslug },
        search: location.search,
      })
    }
    if (path.endsWith('/order/confirmation') && orderStore.orderGuid) return
    // spec §2 step guard
    const missing = firstMissingStep(path)
    if (missing) {
      throw redirect({
        to: STEP_PATHS[missing] as '/$eventslug/design/location',
        params: { eventslug: params.eventslug },
        search: location.search,
      })
    }
  },
  component: Outlet,
})
