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

/** spec §2 step guard on one of the flow's paths: the step to go to instead ('/$eventslug/...'), or
 * null to stay. Loaded by ./flow-guard.ts when a path past the first step needs it. */
export function missingStepRedirect(internalPath: string): string | null {
  const missing = firstMissingStep(internalPath)
  return missing ? STEP_PATHS[missing] : null
}
