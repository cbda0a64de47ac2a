import { createFileRoute } from '@tanstack/react-router'
import { AccountPage } from '../../features/advertisers/account-page'

// The advertisers' pages are chunks of their own (the route's component is split out), never the
// shop's first screen's.
export const Route = createFileRoute('/_default/account')({
  component: AccountPage,
})
