import { describe, expect, it } from 'vitest'
import {
  agreementProblem,
  canPlaceOrder,
  deselectSlot,
  isSlotSelected,
  isStepDone,
  missingAgreements,
  ORDER_STEPS,
  orderBlockers,
  orderSendBlocker,
  promoCodeToFetch,
  REQUIRED_AGREEMENTS,
  SlotSelectionError,
  type StepProgress,
  selectSlot,
  stepToRedirectTo,
} from './order-rules'
import { RuleError } from './problems'

/** The problem a rule throws. */
const thrown = (run: () => unknown) => {
  try {
    run()
  } catch (error) {
    if (error instanceof RuleError) return error.problem
    throw error
  }
  throw new Error('no RuleError thrown')
}

const slot = (slotNumber: number) => ({ slotNumber, label: `label ${slotNumber}`, deviceId: 'd1' })

describe('selecting shout times (spec §4/§5: once only, by slotNumber)', () => {
  it('adds a slot and keeps the list in play order without changing the input', () => {
    const before = [slot(5)]
    const after = selectSlot(before, slot(2))
    expect(after.map((s) => s.slotNumber)).toEqual([2, 5])
    expect(before).toHaveLength(1)
    expect(isSlotSelected(after, 2)).toBe(true)
  })
  it('selecting a selected slot is an error', () => {
    expect(() => selectSlot([slot(5)], slot(5))).toThrow(SlotSelectionError)
    expect(thrown(() => selectSlot([slot(5)], { ...slot(5), label: 'other' }))).toEqual({
      code: 'slot_already_selected',
      params: { slot: 5 },
    })
  })
  it('deselects a selected slot', () => {
    expect(deselectSlot([slot(1), slot(5)], 1)).toEqual([slot(5)])
  })
  it('deselecting an unselected slot is an error', () => {
    expect(thrown(() => deselectSlot([slot(1)], 2))).toEqual({
      code: 'slot_not_selected',
      params: { slot: 2 },
    })
    expect(() => deselectSlot([], 0)).toThrow(SlotSelectionError)
  })
})

describe('agreements (spec §5)', () => {
  it('four must be accepted', () => {
    expect(REQUIRED_AGREEMENTS).toEqual(['safetyWarning', 'terms', 'noChanges', 'privacyPolicy'])
    expect(missingAgreements({})).toEqual(['safetyWarning', 'terms', 'noChanges', 'privacyPolicy'])
    expect(
      missingAgreements({
        safetyWarning: true,
        terms: true,
        noChanges: false,
        privacyPolicy: true,
      }),
    ).toEqual(['noChanges'])
    expect(
      missingAgreements({ safetyWarning: true, terms: true, noChanges: true, privacyPolicy: true }),
    ).toEqual([])
  })
  it('each has a problem that names it', () => {
    expect(agreementProblem('noChanges')).toEqual({
      code: 'agreement_required',
      params: { agreement: 'noChanges' },
    })
  })
})

describe('sending an order (spec §5/§8)', () => {
  it('needs generated content first', () => {
    expect(orderSendBlocker({ generatedContentKey: null, contentGenReq: {} })).toEqual({
      code: 'missing_generated_content',
    })
    expect(orderSendBlocker({ generatedContentKey: '', contentGenReq: null })).toEqual({
      code: 'missing_generated_content',
    })
  })
  it('then the content request metadata', () => {
    expect(orderSendBlocker({ generatedContentKey: 'k', contentGenReq: undefined })).toEqual({
      code: 'missing_content_metadata',
    })
    expect(
      orderSendBlocker({ generatedContentKey: 'k', contentGenReq: { generatorId: 'g' } }),
    ).toBeNull()
  })
  const ready = {
    generatedContentKey: 'k',
    contentGenReq: {},
    agreements: { safetyWarning: true, terms: true, noChanges: true, privacyPolicy: true },
    slotCount: 2,
  }
  it('can be placed when everything is there', () => {
    expect(canPlaceOrder(ready)).toBe(true)
    expect(orderBlockers(ready)).toEqual([])
  })
  it('lists every blocker', () => {
    expect(
      orderBlockers({
        ...ready,
        slotCount: 0,
        generatedContentKey: null,
        agreements: { terms: true },
      }),
    ).toEqual([
      { code: 'no_slots_selected' },
      { code: 'missing_generated_content' },
      { code: 'agreement_required', params: { agreement: 'safetyWarning' } },
      { code: 'agreement_required', params: { agreement: 'noChanges' } },
      { code: 'agreement_required', params: { agreement: 'privacyPolicy' } },
    ])
    expect(canPlaceOrder({ ...ready, agreements: { ...ready.agreements, terms: false } })).toBe(
      false,
    )
  })
})

describe('step guard (spec §2)', () => {
  const nothing: StepProgress = {
    hasActiveDevice: false,
    hasSelectedTemplate: false,
    hasGeneratedContent: false,
    hasContentGenReq: false,
    shoutTimeCount: 0,
    paymentRequired: true,
    cardFormSubmitted: false,
  }
  const all: StepProgress = {
    ...nothing,
    hasActiveDevice: true,
    hasSelectedTemplate: true,
    hasGeneratedContent: true,
    hasContentGenReq: true,
    shoutTimeCount: 1,
    cardFormSubmitted: true,
  }
  it('checks the steps in order', () => {
    expect(ORDER_STEPS).toEqual(['location', 'template', 'customize', 'select-shouts', 'checkout'])
  })
  it('sends the shopper to the first step with missing data', () => {
    expect(stepToRedirectTo('eventslug-order-review', nothing)).toBe('location')
    expect(stepToRedirectTo('eventslug-order-review', { ...all, hasGeneratedContent: false })).toBe(
      'customize',
    )
    expect(stepToRedirectTo('eventslug-order-review', { ...all, shoutTimeCount: 0 })).toBe(
      'select-shouts',
    )
    expect(stepToRedirectTo('eventslug-order-review', { ...all, cardFormSubmitted: false })).toBe(
      'checkout',
    )
    expect(stepToRedirectTo('eventslug-order-review', all)).toBeNull()
  })
  it('stops checking at the current step', () => {
    expect(stepToRedirectTo('eventslug-design-location', nothing)).toBeNull()
    expect(
      stepToRedirectTo('eventslug-design-template', { ...nothing, hasActiveDevice: true }),
    ).toBeNull()
    expect(
      stepToRedirectTo('eventslug-design-customize', { ...nothing, hasActiveDevice: true }),
    ).toBe('template')
  })
  it('checkout is done when no payment is required', () => {
    expect(isStepDone('checkout', { ...nothing, paymentRequired: false })).toBe(true)
    expect(isStepDone('checkout', nothing)).toBe(false)
    expect(isStepDone('customize', { ...nothing, hasGeneratedContent: true })).toBe(false)
  })
})

describe('promo in the URL query (spec §4)', () => {
  it('is fetched when it is a new plain string', () => {
    expect(promoCodeToFetch('MOM10', null)).toBe('MOM10')
    expect(promoCodeToFetch(' MOM10 ', 'OTHER')).toBe('MOM10')
  })
  it('is ignored when absent, repeated or already the order promo', () => {
    expect(promoCodeToFetch(undefined, null)).toBeNull()
    expect(promoCodeToFetch('', null)).toBeNull()
    expect(promoCodeToFetch(['A', 'B'], null)).toBeNull()
    expect(promoCodeToFetch(42, null)).toBeNull()
    expect(promoCodeToFetch('MOM10', 'MOM10')).toBeNull()
  })
})
