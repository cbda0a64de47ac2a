import type { MessageDescriptor } from '@lingui/core'
import { msg } from '@lingui/core/macro'
import type { ComponentType } from 'react'
import type { OperatorRole } from '../../domain/ops'
import { AuditPage } from './audit-page'
import { CataloguePage } from './catalogue-page'
import { DashboardPage } from './dashboard-page'
import { OrdersPage } from './orders-page'
import { OutboxPage } from './outbox-page'
import { ReviewPage } from './review-page'
import { SchedulePage } from './schedule-page'
import { SetPasswordPage } from './set-password-page'
import { SignInPage } from './sign-in-page'

/**
 * The console's pages (issue 10), in the order of its navigation. `path` is the part after `/ops/`.
 * `roles`: who may open it (reviewers approve and refuse orders under review and read orders;
 * everything else is admin only), or 'public' for the pages before sign-in. A page with a `label`
 * is in the navigation of the roles that may open it. The layout shows a page an operator's role may
 * not open as "not allowed" (the API refuses its calls with 403 too).
 *
 * A new page: its component in src/app/ops/, an entry here. No route file: the one route
 * (src/app/routes/ops.$.tsx) serves them all from the console's own chunk.
 */
export type OpsPageDef = {
  path: string
  label?: MessageDescriptor
  roles: readonly OperatorRole[] | 'public'
  component: ComponentType
}

export const EVERYONE: readonly OperatorRole[] = ['reviewer', 'admin']
export const ADMINS: readonly OperatorRole[] = ['admin']

export const OPS_PAGES: readonly OpsPageDef[] = [
  { path: 'sign-in', roles: 'public', component: SignInPage },
  { path: 'set-password', roles: 'public', component: SetPasswordPage },
  { path: 'review', label: msg`Review`, roles: EVERYONE, component: ReviewPage },
  { path: 'orders', label: msg`Orders`, roles: EVERYONE, component: OrdersPage },
  { path: 'schedule', label: msg`Schedule`, roles: EVERYONE, component: SchedulePage },
  { path: 'catalogue', label: msg`Catalogue`, roles: ADMINS, component: CataloguePage },
  { path: 'dashboard', label: msg`Dashboard`, roles: ADMINS, component: DashboardPage },
  { path: 'outbox', label: msg`Outbox`, roles: ADMINS, component: OutboxPage },
  { path: 'audit', label: msg`Audit log`, roles: ADMINS, component: AuditPage },
]

/** The page of `/ops/{path}`, if there is one. */
export function pageOf(path: string): OpsPageDef | undefined {
  return OPS_PAGES.find((page) => page.path === path.replace(/\/+$/, ''))
}
