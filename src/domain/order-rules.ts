import { type DomainProblem, domainProblem, RuleError } from './problems'

// spec §4 and §5: rules of the order flow.

export type ShoutTime = { slotNumber: number; label: string; deviceId?: string }

export class SlotSelectionError extends RuleError {
  override readonly name = 'SlotSelectionError'
}

/** spec §4/§5: a slot can be selected once only (by slotNumber); answers a new list in play order. */
export function selectSlot<T extends ShoutTime>(shoutTimes: readonly T[], slot: T): T[] {
  if (shoutTimes.some((s) => s.slotNumber === slot.slotNumber)) {
    throw new SlotSelectionError(domainProblem('slot_already_selected', { slot: slot.slotNumber }))
  }
  return [...shoutTimes, slot].sort((a, b) => a.slotNumber - b.slotNumber)
}

/** spec §4: deselecting a slot that is not selected is an error. */
export function deselectSlot<T extends ShoutTime>(
  shoutTimes: readonly T[],
  slotNumber: number,
): T[] {
  if (!shoutTimes.some((s) => s.slotNumber === slotNumber)) {
    throw new SlotSelectionError(domainProblem('slot_not_selected', { slot: slotNumber }))
  }
  return shoutTimes.filter((s) => s.slotNumber !== slotNumber)
}

export function isSlotSelected(shoutTimes: readonly ShoutTime[], slotNumber: number): boolean {
  return shoutTimes.some((s) => s.slotNumber === slotNumber)
}

// spec §5: four agreements must be accepted before the order is placed
export const REQUIRED_AGREEMENTS = ['safetyWarning', 'terms', 'noChanges', 'privacyPolicy'] as const
export type RequiredAgreement = (typeof REQUIRED_AGREEMENTS)[number]

export function missingAgreements(
  agreements: Partial<Record<RequiredAgreement, boolean>>,
): RequiredAgreement[] {
  return REQUIRED_AGREEMENTS.filter((key) => agreements[key] !== true)
}

/** spec §5: the problem of an agreement not accepted (its key names it; the catalogue has its words). */
export function agreementProblem(key: RequiredAgreement): DomainProblem {
  return domainProblem('agreement_required', { agreement: key })
}

export type OrderContent = {
  generatedContentKey: string | null | undefined
  contentGenReq: unknown
}

/**
 * spec §5/§8: an order is not sent without generated content ('missing generated content'),
 * nor without the content-generation request ('missing billboard content metadata').
 */
export function orderSendBlocker({
  generatedContentKey,
  contentGenReq,
}: OrderContent): DomainProblem | null {
  if (!generatedContentKey) return domainProblem('missing_generated_content')
  if (contentGenReq === null || contentGenReq === undefined) {
    return domainProblem('missing_content_metadata')
  }
  return null
}

export type PlaceOrderInput = OrderContent & {
  agreements: Partial<Record<RequiredAgreement, boolean>>
  slotCount: number
}

/** Every reason the order cannot be placed yet, as problems for the review page. */
export function orderBlockers(input: PlaceOrderInput): DomainProblem[] {
  const blockers: DomainProblem[] = []
  if (input.slotCount < 1) blockers.push(domainProblem('no_slots_selected'))
  const content = orderSendBlocker(input)
  if (content) blockers.push(content)
  return [...blockers, ...missingAgreements(input.agreements).map(agreementProblem)]
}

export function canPlaceOrder(input: PlaceOrderInput): boolean {
  return orderBlockers(input).length === 0
}

// spec §2 step guard: steps in order, each done when its data exists.
export const ORDER_STEPS = [
  'location',
  'template',
  'customize',
  'select-shouts',
  'checkout',
] as const
export type OrderStep = (typeof ORDER_STEPS)[number]

export type StepProgress = {
  hasActiveDevice: boolean
  hasSelectedTemplate: boolean
  hasGeneratedContent: boolean
  hasContentGenReq: boolean
  shoutTimeCount: number
  paymentRequired: boolean
  cardFormSubmitted: boolean
}

export function isStepDone(step: OrderStep, p: StepProgress): boolean {
  switch (step) {
    case 'location':
      return p.hasActiveDevice
    case 'template':
      return p.hasSelectedTemplate
    case 'customize':
      return p.hasGeneratedContent && p.hasContentGenReq
    case 'select-shouts':
      return p.shoutTimeCount > 0
    case 'checkout':
      return !p.paymentRequired || p.cardFormSubmitted
  }
}

/**
 * spec §2: checking stops at the step the current route belongs to; otherwise the first step
 * whose data is missing is where the shopper is sent. null: stay.
 */
export function stepToRedirectTo(
  currentRouteName: string,
  progress: StepProgress,
): OrderStep | null {
  for (const step of ORDER_STEPS) {
    if (currentRouteName.includes(step)) return null
    if (!isStepDone(step, progress)) return step
  }
  return null
}

/**
 * spec §4: a promo in the URL query is ignored when absent, not a plain string (e.g. repeated),
 * or equal to the order's promo; otherwise it is the code to look up.
 */
export function promoCodeToFetch(
  queryValue: unknown,
  currentPromoCode: string | null,
): string | null {
  if (typeof queryValue !== 'string' || queryValue.trim() === '') return null
  const code = queryValue.trim()
  return code === currentPromoCode ? null : code
}

/** spec §3: the confirmation code is the first 8 characters of the order guid. */
export function confirmationCode(orderGuid: string): string {
  return orderGuid.slice(0, 8)
}
