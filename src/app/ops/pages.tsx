import type { MessageDescriptor } from '@lingui/core'
import { msg } from '@lingui/core/macro'
import { type ComponentType, lazy } from 'react'
import { billboards } from '../../contract/billboards'
import { mail } from '../../contract/mail'
import { ops } from '../../contract/ops'
import { opsCampaigns } from '../../contract/ops-campaigns'
import { opsConsole } from '../../contract/ops-console'
import { type OperatorRole, roleAllows } from '../../domain/ops'
import { AuditPage } from './audit-page'
import { CampaignsPage } from './campaigns-page'
import { CataloguePage } from './catalogue-page'
import { DashboardPage } from './dashboard-page'
import { OrdersPage } from './orders-page'
import { OutboxPage } from './outbox-page'
import { ReviewPage } from './review-page'
import { SchedulePage } from './schedule-page'
import { SetPasswordPage } from './set-password-page'
import { SignInPage } from './sign-in-page'

/**
 * The console's pages, in the order of its navigation. `path` is the part after `/ops/`.
 * `access`: the least role that may open it, checked with the domain's roleAllows (admins may do
 * all that reviewers do): the `access` of the call the page is for, so page and API agree (reviewers
 * approve and refuse orders under review and read orders; everything else is admin only); or
 * 'public' for the pages before sign-in. A page with a `label` is in the navigation of the roles
 * that may open it. The layout shows a page an operator's role may not open as "not allowed" (the
 * API refuses its calls with 403 too).
 *
 * A new page: its component in src/app/ops/, an entry here. No route file: the one route
 * (src/app/routes/ops.$.tsx) serves them all from the console's own chunk.
 */
export type OpsPageDef = {
  path: string
  label?: MessageDescriptor
  access: OperatorRole | 'public'
  component: ComponentType
}

export const OPS_PAGES: readonly OpsPageDef[] = [
  { path: 'sign-in', access: 'public', component: SignInPage },
  { path: 'set-password', access: 'public', component: SetPasswordPage },
  { path: 'review', label: msg`Review`, access: ops.review.access, component: ReviewPage },
  { path: 'orders', label: msg`Orders`, access: ops.orders.access, component: OrdersPage },
  {
    path: 'schedule',
    label: msg`Schedule`,
    access: opsConsole.scheduleDay.access,
    component: SchedulePage,
  },
  {
    path: 'billboards',
    label: msg`Billboards`,
    access: billboards.health.access,
    // its own chunk: only the operators who open it load it
    component: lazy(() => import('./billboards-page')),
  },
  {
    path: 'catalogue',
    label: msg`Catalogue`,
    access: opsConsole.catalogueApply.access,
    component: CataloguePage,
  },
  {
    path: 'dashboard',
    label: msg`Dashboard`,
    access: opsConsole.dashboard.access,
    component: DashboardPage,
  },
  {
    path: 'campaigns',
    label: msg`Campaigns`,
    access: opsCampaigns.campaigns.access,
    component: CampaignsPage,
  },
  { path: 'outbox', label: msg`Outbox`, access: mail.outbox.access, component: OutboxPage },
  { path: 'audit', label: msg`Audit log`, access: ops.audit.access, component: AuditPage },
]

/** Whether an operator of `role` may open the page (never a public one: it is not the console's). */
export const mayOpen = (role: OperatorRole, page: OpsPageDef): boolean =>
  page.access !== 'public' && roleAllows(role, page.access)

/** The page of `/ops/{path}`, if there is one. */
export function pageOf(path: string): OpsPageDef | undefined {
  return OPS_PAGES.find((page) => page.path === path.replace(/\/+$/, ''))
}
