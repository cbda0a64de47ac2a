import { createFileRoute, redirect } from '@tanstack/react-router'

// The advertisers' signed-in pages (/campaigns, /campaigns/new, /campaigns/{id}), a layout without
// a path of its own. Without a session in this tab, nor one the refresh cookie gives, the browser
// goes to /account and comes back after signing in (`next`, without the language's prefix: the
// router adds it). A hover's preload checks nothing: it would rotate the refresh cookie at each
// hover. This file is in the route tree, so in the shop's first chunk: the session's code is
// imported when the check runs, never with the shop.
export const Route = createFileRoute('/_default/_advertiser')({
  beforeLoad: async ({ location, preload }) => {
    if (preload) return
    const { ensureSession } = await import('../../features/advertisers/session')
    const account = await ensureSession().catch(() => null)
    if (!account) {
      throw redirect({ to: '/account', search: { next: location.pathname } as never })
    }
  },
})
