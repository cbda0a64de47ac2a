import { type OrderStep, type StepProgress, stepToRedirectTo } from '../../domain/order-rules'
import { routeName, STEP_PATHS } from '../lib/steps'
import { orderStore } from './order'
import { currentOrderPrice } from './order-price'
import { templatesStore } from './templates'

/** What the stores hold now, in the terms of the domain's step rule (spec §2). */
export function stepProgress(): StepProgress {
  return {
    hasActiveDevice: orderStore.activeDevice !== null,
    hasSelectedTemplate: templatesStore.selectedTemplate !== null,
    hasGeneratedContent: templatesStore.generatedContent !== null,
    hasContentGenReq: orderStore.contentGenReq !== null,
    shoutTimeCount: orderStore.shoutTimes.length,
    paymentRequired: currentOrderPrice().paymentRequired,
    cardFormSubmitted: orderStore.formSubmitted,
  }
}

/** spec §2 step guard: the first step the shopper skipped on the way to this path, or null. */
export function firstMissingStep(internalPath: string): OrderStep | null {
  return stepToRedirectTo(routeName(internalPath), stepProgress())
}

/**
 * The flow's guards on one of its paths (without the locale prefix): the route it must go to instead
 * ('/$eventslug/...'), or null to stay. Run by the _steps route before a step renders, and by
 * src/app/start.tsx once the saved order is restored after a server-rendered first screen.
 */
export function flowRedirect(internalPath: string, search?: { order?: unknown }): string | null {
  // State guard: once an order is placed its content and times cannot change (spec §4), so the
  // flow leads to its confirmation.
  const confirmation = internalPath.endsWith('/order/confirmation')
  if (orderStore.orderGuid && orderStore.orderStatus !== 'Failed' && !confirmation) {
    return '/$eventslug/order/confirmation'
  }
  // The e-mails' link (?order=GUID) shows that order, on any device
  if (confirmation && (orderStore.orderGuid || typeof search?.order === 'string')) return null
  // spec §2 step guard
  const missing = firstMissingStep(internalPath)
  return missing ? STEP_PATHS[missing] : null
}
