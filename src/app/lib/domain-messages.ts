import type { I18n, MessageDescriptor } from '@lingui/core'
import { msg } from '@lingui/core/macro'
import { messages } from '../../domain/messages'

// The spec's exact English messages come from src/domain; this table gives each one its
// translation. domain-messages.test.ts checks every English source here equals the domain's text.
export const DOMAIN_MESSAGES: Record<string, MessageDescriptor> = {
  [messages.emailInvalid]: msg`Email Address is invalid`,
  [messages.phoneInvalid]: msg`Phone number format invalid, try: XXX-XXX-XXXX`,
  [messages.firstNameEmpty]: msg`First Name should not be empty`,
  [messages.lastNameEmpty]: msg`Last Name should not be empty`,
  [messages.firstNameTooLong]: msg`First Name must be at most 100 characters`,
  [messages.lastNameTooLong]: msg`Last Name must be at most 100 characters`,
  [messages.promoInvalid]: msg`Promo Code Invalid`,
  [messages.promoWrongEvent]: msg`This promo code should not be used for this event`,
  [messages.promoOncePerCustomer]: msg`This promo code should be used once for this event`,
  [messages.promoProblemAdvice]: msg`Please try entering it again at checkout, or contact support if the problem continues.`,
  [messages.promoTooManyLookups]: msg`Too many promo code lookups. Please wait a minute and try again.`,
  [messages.missingBillboardContent]: msg`Unable to send order due to missing billboard content. Please go back to add content.`,
  [messages.missingGeneratedContent]: msg`Unable to send order due to missing generated content`,
  [messages.missingContentMetadata]: msg`Failed to place order due to missing billboard content metadata`,
  [messages.unknownError]: msg`An unknown error occurred. Please try again.`,
  [messages.unknownErrorSorry]: msg`Sorry, an unknown error occurred`,
  [messages.orderStatusTimeout]: msg`We were unable to complete your order at this time; please try again later`,
  [messages.paymentAlreadySaved]: msg`Payment method has already been saved. Refresh the page if you need to resubmit (you won't lose your billboard content).`,
  [messages.noSlotsSelected]: msg`Please select at least one shout time`,
  [messages.eventNotFound]: msg`Event not found`,
  [messages.soldOut]: msg`This Billboard is Sold Out`,
  [messages.pageDoesNotExist]: msg`This page doesn't exist`,
  [messages.pageNotFound]: msg`This page could not be found`,
  [messages.applicationError]: msg`Application Error`,
  [messages.cardDeclined]: msg`Your card was declined.`,
  [messages.cardInsufficientFunds]: msg`Your card has insufficient funds.`,
  [messages.cardNumberInvalid]: msg`Your card number is invalid.`,
  [messages.cardExpired]: msg`Your card has expired.`,
  [messages.uploadWrongType]: msg`This file type is not supported. Use a jpg, jpeg, gif or png image, or an mp4, wav, mpg, avi or wmv video.`,
  [messages.purchaseCutoff]: msg`Orders must be purchased 5 hours before play time (a 6:00pm-6:15pm play needs purchase before 1:00pm).`,
  [messages.recommendedMinimum]: msg`At least 2 slots recommended`,
  // The reason of an order cancelled by itself (its review outlived its first slot)
  [messages.reviewOutlivedFirstSlot]: msg`Your shout was still being reviewed when its first time slot began`,
}

type Parametric = {
  build: (value: string) => string
  translate: (i18n: I18n, value: string) => string
  /** the stand-in value used to find the text around the value (a number for numeric ones) */
  marker?: string
}

// Messages with a value in them: matched by the domain's own text around the value.
const PARAMETRIC: Parametric[] = [
  {
    build: messages.slotsTaken,
    translate: (i18n, slots) =>
      i18n._(msg`Time slot(s) taken ${slots}. Please go back and select another.`),
  },
  {
    build: messages.promoProblem,
    translate: (i18n, code) => i18n._(msg`There was a problem with your promo code ${code}`),
  },
  {
    build: messages.notAvailableFor,
    translate: (i18n, event) => i18n._(msg`Not Available For ${event}`),
  },
  {
    build: (days) => messages.remainingDatesConfirmed(Number(days)),
    translate: (i18n, days) =>
      i18n._(msg`Remaining dates confirmed ${days} day(s) before the selected time`),
    marker: '987654321',
  },
]

function matchParametric(text: string): { entry: Parametric; value: string } | null {
  for (const entry of PARAMETRIC) {
    const marker = entry.marker ?? '\u0000'
    const [before = '', after = ''] = entry.build(marker).split(marker)
    if (
      text.startsWith(before) &&
      text.endsWith(after) &&
      text.length > before.length + after.length
    ) {
      return { entry, value: text.slice(before.length, text.length - after.length) }
    }
  }
  return null
}

/** A message from the domain or the server, in the shopper's language (as is when unknown). */
export function translateMessage(i18n: I18n, text: string): string {
  const descriptor = DOMAIN_MESSAGES[text]
  if (descriptor) return i18n._(descriptor)
  const parametric = matchParametric(text)
  if (parametric) return parametric.entry.translate(i18n, parametric.value)
  return text
}
