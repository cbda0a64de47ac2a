import { describe, expect, it } from 'vitest'
import { passwordProblem } from '../domain/ops'
import { agreementProblem, orderSendBlocker } from '../domain/order-rules'
import { ContactInfoSchema, fieldErrors } from '../domain/validation'
import { WORD_PARAMS } from './problem-words'
import {
  declineProblemCode,
  englishOf,
  isProblemCode,
  PROBLEM_PARTS,
  PROBLEMS,
  type ProblemCode,
  problem,
  statusOf,
  WORDS,
} from './problems'

const codes = Object.keys(PROBLEMS) as ProblemCode[]

describe('the catalogue of problems', () => {
  it('writes each code in one part only (a code in two would be overwritten silently)', () => {
    const written = Object.values(PROBLEM_PARTS).flatMap((part) => Object.keys(part))
    expect(written.length).toBe(codes.length)
    expect(new Set(written).size).toBe(codes.length)
  })

  it('gives every code one status and one English text', () => {
    for (const code of codes) {
      expect(code, code).toMatch(/^[a-z][a-z0-9]*(?:_[a-z0-9]+)*$/)
      expect(PROBLEMS[code].status, code).toBeGreaterThanOrEqual(400)
      expect(PROBLEMS[code].status, code).toBeLessThan(600)
      expect(PROBLEMS[code].en.trim(), code).not.toBe('')
    }
  })

  it('never gives two codes the same text', () => {
    const byText = new Map<string, ProblemCode[]>()
    for (const code of codes)
      byText.set(PROBLEMS[code].en, [...(byText.get(PROBLEMS[code].en) ?? []), code])
    expect([...byText.values()].filter((list) => list.length > 1)).toEqual([])
  })

  it('names a table of words only for a placeholder of a code it has', () => {
    for (const [code, params] of Object.entries(WORD_PARAMS)) {
      expect(isProblemCode(code), code).toBe(true)
      for (const [param, table] of Object.entries(params)) {
        expect(PROBLEMS[code as ProblemCode].en, code).toContain(`{${param}}`)
        expect(Object.keys(WORDS), code).toContain(table)
      }
    }
  })
})

describe('a problem in English', () => {
  it('writes the values in, a word for a key, and a problem given as a value in its English', () => {
    expect(englishOf(problem('slot_not_in_event', { slot: 12 }))).toBe(
      'Slot 12 is not part of this event',
    )
    expect(englishOf(problem('upload_kind_mismatch', { needed: 'video', kind: 'photo' }))).toBe(
      'This template needs a video, and the upload is a photo.',
    )
    expect(englishOf(problem('content_type_unavailable', { contentType: 'video' }))).toBe(
      'Video templates are not available on this server.',
    )
    const unreadable = problem('video_unreadable', { reason: 'ffprobe failed' })
    expect(englishOf(problem('upload_failed', { kind: 'video', reason: unreadable }))).toBe(
      'The video could not be processed: This video could not be read: ffprobe failed. Upload another.',
    )
    expect(englishOf(problem('image_too_large', { maxSide: 16384, width: 1, height: 2 }))).toBe(
      'The image is too large: at most 16,384 pixels a side (this one is 1×2).',
    )
    expect(englishOf({ code: 'no_such_code' })).toBe('no_such_code')
  })

  // spec §5, §8: the rules' problems go out as the spec's own sentences, word for word
  it("gives the rules' problems the spec's sentences", () => {
    const contact = fieldErrors(ContactInfoSchema, {
      firstName: '',
      lastName: ' ',
      email: 'x',
      phone: '1',
    })
    expect(Object.values(contact).map((p) => p && englishOf(p))).toEqual([
      'First Name should not be empty',
      'Last Name should not be empty',
      'Email Address is invalid',
      'Phone number format invalid, try: XXX-XXX-XXXX',
    ])
    expect(englishOf(agreementProblem('noChanges'))).toBe(
      'Please accept the no-changes acknowledgement to place your order',
    )
    expect(englishOf(agreementProblem('terms'))).toBe(
      'Please accept the terms and conditions to place your order',
    )
    const noContent = orderSendBlocker({ generatedContentKey: null, contentGenReq: null })
    expect(noContent && englishOf(noContent)).toBe(
      'Unable to send order due to missing generated content',
    )
    const weak = passwordProblem('short')
    expect(weak && englishOf(weak)).toBe('The password must be at least 12 characters long')
  })

  it('has the spec sentences the server sends, word for word', () => {
    const sent: [string, ReturnType<typeof problem>][] = [
      [
        'Time slot(s) taken 03-01-2027 06:00 PM, 03-01-2027 06:15 PM. Please go back and select another.',
        problem('slots_taken', { slots: '03-01-2027 06:00 PM, 03-01-2027 06:15 PM' }),
      ],
      [
        'Unable to send order due to missing billboard content. Please go back to add content.',
        problem('missing_billboard_content'),
      ],
      [
        'Failed to place order due to missing billboard content metadata',
        problem('missing_content_metadata'),
      ],
      ['An unknown error occurred. Please try again.', problem('unknown_error')],
      ['Sorry, an unknown error occurred', problem('unknown_error_sorry')],
      [
        'We were unable to complete your order at this time; please try again later',
        problem('order_status_timeout'),
      ],
      [
        "Payment method has already been saved. Refresh the page if you need to resubmit (you won't lose your billboard content).",
        problem('payment_already_saved'),
      ],
      ['Event not found', problem('event_not_found')],
      ['This page could not be found', problem('page_not_found')],
      ['This Billboard is Sold Out', problem('sold_out')],
      [
        "Not Available For Mother's Day",
        problem('not_available_for_event', { event: "Mother's Day" }),
      ],
      ['Promo Code Invalid', problem('promo_invalid')],
      ['This promo code should not be used for this event', problem('promo_wrong_event')],
      ['This promo code should be used once for this event', problem('promo_once_per_customer')],
      [
        'There was a problem with your promo code MOM10',
        problem('promo_problem', { promoCode: 'MOM10' }),
      ],
      ['Your card was declined.', problem('card_declined')],
      ['The file is too large. The limit is 50 MB.', problem('upload_too_large', { mb: 50 })],
      [
        "Date/time 'x' cannot be created because the format is invalid",
        problem('date_format_invalid', { value: 'x' }),
      ],
    ]
    for (const [text, p] of sent) expect(englishOf(p), p.code).toBe(text)
  })
})

describe('statuses and declines', () => {
  it("answers a code's own status, 500 for one the catalogue does not know", () => {
    expect(statusOf('slots_taken')).toBe(409)
    expect(statusOf('no_such_code')).toBe(500)
    expect(isProblemCode('no_such_code')).toBe(false)
  })

  it('sends a decline code it does not name as card_declined', () => {
    expect(declineProblemCode('insufficient_funds')).toBe('insufficient_funds')
    expect(declineProblemCode('do_not_honor')).toBe('card_declined')
    // Stripe: tell the cardholder no more than "declined" for a lost or stolen card
    expect(declineProblemCode('lost_card')).toBe('card_declined')
    expect(declineProblemCode('stolen_card')).toBe('card_declined')
  })
})
