import type { MessageDescriptor } from '@lingui/core'
import { msg } from '@lingui/core/macro'
import type { OrderStep } from '../../domain/order-rules'

// The flow's steps as the app names them: their routes and their labels. What the stores say about
// them (which step is done) is stores/step-progress.ts, so this module stays below the stores.

export type FlowStep = OrderStep | 'review'

export const STEP_PATHS: Record<FlowStep, string> = {
  location: '/$eventslug/design/location',
  template: '/$eventslug/design/template',
  customize: '/$eventslug/design/customize',
  'select-shouts': '/$eventslug/order/select-shouts',
  checkout: '/$eventslug/order/checkout',
  review: '/$eventslug/order/review',
}

export type StepLabel = { step: FlowStep; label: MessageDescriptor }

// spec §2 step labels, in the order of the indicator.
export const STEP_LABELS: readonly StepLabel[] = [
  { step: 'location', label: msg`Select Location` },
  { step: 'template', label: msg`Select Template` },
  { step: 'customize', label: msg`Customize` },
  { step: 'select-shouts', label: msg`Select Shouts` },
  { step: 'checkout', label: msg`Billing Info` },
  { step: 'review', label: msg`Order Review` },
]

/** The route name of an internal path ('/x/order/review' → 'eventslug-order-review'). */
export function routeName(internalPath: string): string {
  const parts = internalPath.split('/').filter(Boolean)
  return ['eventslug', ...parts.slice(1)].join('-')
}
