import { type ParsedLocation, redirect } from '@tanstack/react-router'
import type { OperatorInfo } from '../../contract/ops/orders'
import { loadOpsCatalog } from './catalog'
import { pageOf } from './pages'
import { currentOperator } from './session'
import { signInHref } from './sign-in-link'

/** The part of a console address after `/ops/` (the address without its language prefix). */
export function opsPath(pathname: string): string {
  return pathname.replace(/^\/ops\/?/, '').replace(/\/+$/, '')
}

/**
 * What the console's route does before a page shows (src/app/routes/ops.$.tsx, through a dynamic
 * import: the route file is in the shop's first chunk, this is in the console's): the console's
 * catalog; `/ops` itself is the review queue (every role has it); a signed-in page without a
 * session (none, or ended: 12 h idle) goes to sign-in first, and back after.
 */
export async function enter(
  location: ParsedLocation,
  signal: AbortSignal,
): Promise<{ operator: OperatorInfo | null }> {
  await loadOpsCatalog()
  const path = opsPath(location.pathname)
  if (path === '') throw redirect({ href: '/ops/review', replace: true })
  const page = pageOf(path)
  if (!page || page.access === 'public') return { operator: null }
  const operator = await currentOperator(signal)
  if (!operator) throw redirect({ href: signInHref({ redirect: location.href }) })
  return { operator }
}
