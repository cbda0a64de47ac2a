import type { MessageDescriptor } from '@lingui/core'
import { msg } from '@lingui/core/macro'
import { type OrderStep, type StepProgress, stepToRedirectTo } from '../../domain/order-rules'
import { orderStore } from '../stores/order'
import { templatesStore } from '../stores/templates'
import { currentOrderPrice } from './order-price'

export const STEP_PATHS: Record<OrderStep | 'review', string> = {
  location: '/$eventslug/design/location',
  template: '/$eventslug/design/template',
  customize: '/$eventslug/design/customize',
  'select-shouts': '/$eventslug/order/select-shouts',
  checkout: '/$eventslug/order/checkout',
  review: '/$eventslug/order/review',
}

// spec §2 step labels, in the order of the indicator.
export const STEP_LABELS: { step: OrderStep | 'review'; label: MessageDescriptor }[] = [
  { step: 'location', label: msg`Select Location` },
  { step: 'template', label: msg`Select Template` },
  { step: 'customize', label: msg`Customize` },
  { step: 'select-shouts', label: msg`Select Shouts` },
  { step: 'checkout', label: msg`Billing Info` },
  { step: 'review', label: msg`Order Review` },
]

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

/** The route name of an internal path ('/x/order/review' → 'eventslug-order-review'). */
export function routeName(internalPath: string): string {
  const parts = internalPath.split('/').filter(Boolean)
  return ['eventslug', ...parts.slice(1)].join('-')
}

export function firstMissingStep(internalPath: string): OrderStep | null {
  return stepToRedirectTo(routeName(internalPath), stepProgress())
}
