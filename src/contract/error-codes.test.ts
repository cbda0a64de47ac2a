import { describe, expect, it } from 'vitest'
import { messages } from '../domain/messages'
import { opsMessages, PASSWORD_MIN_LENGTH } from '../domain/ops'
import {
  declineErrorCode,
  ERROR_CODES,
  type ErrorCode,
  fillTemplate,
  isErrorCode,
  templateValues,
} from './error-codes'

describe('error codes', () => {
  it('reads the values of a text made from a template, and nothing from another text', () => {
    expect(templateValues(ERROR_CODES.slot_not_in_event, messages.slotNotInEvent(12))).toEqual({
      slot: '12',
    })
    expect(templateValues(ERROR_CODES.slot_not_in_event, messages.slotPastCutoff(12))).toBeNull()
    expect(templateValues(ERROR_CODES.event_not_found, 'Event not found')).toEqual({})
    expect(fillTemplate(ERROR_CODES.upload_too_large, { mb: 30 })).toBe(
      messages.uploadTooLarge(30 * 1024 * 1024),
    )
  })

  // The registry's English is the text the server sends for these (built from the domain's messages).
  it('has the spec sentences the server sends, word for word', () => {
    const sent: [ErrorCode, string][] = [
      ['slot_not_in_event', messages.slotNotInEvent(3)],
      ['slot_past_cutoff', messages.slotPastCutoff(3)],
      ['slots_taken', messages.slotsTaken('03-01-2027 06:00 PM, 03-01-2027 06:15 PM')],
      ['not_available_for_event', messages.notAvailableFor('Spring Fair')],
      ['agreement_required', messages.agreementRequired('terms and conditions')],
      ['upload_too_large', messages.uploadTooLarge(50 * 1024 * 1024)],
      ['unknown_error', messages.unknownError],
      ['order_not_found', messages.orderNotFound],
      ['device_not_found', messages.deviceNotFound],
      ['promo_too_many_lookups', messages.promoTooManyLookups],
      ['card_declined', messages.cardDeclined],
      ['insufficient_funds', messages.cardInsufficientFunds],
      ['expired_card', messages.cardExpired],
      ['incorrect_number', messages.cardNumberInvalid],
      ['password_weak', opsMessages.passwordTooShort],
    ]
    for (const [code, text] of sent)
      expect(templateValues(ERROR_CODES[code], text), code).not.toBeNull()
    // the bound is the domain's, filled in, never a number typed into the registry
    expect(fillTemplate(ERROR_CODES.password_weak, { min: PASSWORD_MIN_LENGTH })).toBe(
      opsMessages.passwordTooShort,
    )
  })

  it('sends a decline code it does not know as card_declined', () => {
    expect(declineErrorCode('insufficient_funds')).toBe('insufficient_funds')
    expect(declineErrorCode('do_not_honor')).toBe('card_declined')
    expect(isErrorCode('do_not_honor')).toBe(false)
  })
})
