import { describe, expect, it } from 'vitest'
import { messages } from './messages'

describe('spec messages (§5, §8)', () => {
  it('contact validation', () => {
    expect(messages.emailInvalid).toBe('Email Address is invalid')
    expect(messages.phoneInvalid).toBe('Phone number format invalid, try: XXX-XXX-XXXX')
    expect(messages.firstNameEmpty).toBe('First Name should not be empty')
    expect(messages.lastNameEmpty).toBe('Last Name should not be empty')
  })
  it('promo codes', () => {
    expect(messages.promoInvalid).toBe('Promo Code Invalid')
    expect(messages.promoWrongEvent).toBe('This promo code should not be used for this event')
    expect(messages.promoOncePerCustomer).toBe('This promo code should be used once for this event')
    expect(messages.promoProblem('MOM10')).toBe('There was a problem with your promo code MOM10')
  })
  it('order errors', () => {
    expect(messages.slotsTaken('6:00 - 6:15pm, 6:15 - 6:30pm')).toBe(
      'Time slot(s) taken 6:00 - 6:15pm, 6:15 - 6:30pm. Please go back and select another.',
    )
    expect(messages.missingBillboardContent).toBe(
      'Unable to send order due to missing billboard content. Please go back to add content.',
    )
    expect(messages.missingGeneratedContent).toBe(
      'Unable to send order due to missing generated content',
    )
    expect(messages.missingContentMetadata).toBe(
      'Failed to place order due to missing billboard content metadata',
    )
    expect(messages.unknownError).toBe('An unknown error occurred. Please try again.')
    expect(messages.unknownErrorSorry).toBe('Sorry, an unknown error occurred')
    expect(messages.orderStatusTimeout).toBe(
      'We were unable to complete your order at this time; please try again later',
    )
    expect(messages.paymentAlreadySaved).toBe(
      "Payment method has already been saved. Refresh the page if you need to resubmit (you won't lose your billboard content).",
    )
  })
  it('events, billboards and payments', () => {
    expect(messages.eventNotFound).toBe('Event not found')
    expect(messages.soldOut).toBe('This Billboard is Sold Out')
    expect(messages.notAvailableFor("Mother's Day")).toBe("Not Available For Mother's Day")
    expect(messages.cardDeclined).toBe('Your card was declined.')
    expect(messages.pageDoesNotExist).toBe("This page doesn't exist")
    expect(messages.pageNotFound).toBe('This page could not be found')
  })
  it('notices and dates', () => {
    expect(messages.recommendedMinimum).toBe('At least 2 slots recommended')
    expect(messages.remainingDatesConfirmed(3)).toBe(
      'Remaining dates confirmed 3 day(s) before the selected time',
    )
    expect(messages.badWeekday).toBe('Bad weekday')
    expect(messages.dateFormatInvalid('x')).toBe(
      "Date/time 'x' cannot be created because the format is invalid",
    )
    expect(messages.uploadTooLarge(50 * 1024 * 1024)).toBe(
      'The file is too large. The limit is 50 MB.',
    )
  })
})
