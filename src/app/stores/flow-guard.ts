import { routeName, STEP_PATHS } from '../lib/steps'
import { orderStore } from './order'

const FIRST_STEP = routeName(STEP_PATHS.location)

/**
 * The flow's guards on one of its paths (without the locale prefix): the route it must go to instead
 * ('/$eventslug/...'), or null to stay. Run by the _steps route before a step renders, and by
 * src/app/start.tsx once the saved order is restored after a server-rendered first screen. The step
 * guard's code (./step-progress.ts, with the price rule) is loaded only for a path past the first
 * step: no step before the first can be missing, and the first is all the server renders.
 */
export async function flowRedirect(
  internalPath: string,
  search?: { order?: unknown },
): Promise<string | null> {
  // State guard: once an order is placed its content and times cannot change (spec §4), so the
  // flow leads to its confirmation.
  const confirmation = internalPath.endsWith('/order/confirmation')
  if (orderStore.orderGuid && orderStore.orderStatus !== 'Failed' && !confirmation) {
    return '/$eventslug/order/confirmation'
  }
  // The e-mails' link (?order=GUID) shows that order, on any device
  if (confirmation && (orderStore.orderGuid || typeof search?.order === 'string')) return null
  if (routeName(internalPath) === FIRST_STEP) return null
  // spec §2 step guard
  return (await import('./step-progress')).missingStepRedirect(internalPath)
}
