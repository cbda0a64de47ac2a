// @deprecated: problems are codes (./problems.ts) and their English is the contract's catalogue
// (src/contract/problems.ts). These texts stay only for the server modules not yet converted
// (order, payment, content, ops) and go with their conversion.

export const messages = {
  // spec §5: contact validation
  emailInvalid: 'Email Address is invalid',
  phoneInvalid: 'Phone number format invalid, try: XXX-XXX-XXXX',
  firstNameEmpty: 'First Name should not be empty',
  lastNameEmpty: 'Last Name should not be empty',
  firstNameTooLong: 'First Name must be at most 100 characters',
  lastNameTooLong: 'Last Name must be at most 100 characters',

  // spec §5: promo codes
  promoInvalid: 'Promo Code Invalid',
  promoWrongEvent: 'This promo code should not be used for this event',
  promoOncePerCustomer: 'This promo code should be used once for this event',
  promoProblem: (code: string): string => `There was a problem with your promo code ${code}`,
  promoProblemAdvice:
    'Please try entering it again at checkout, or contact support if the problem continues.',
  promoTooManyLookups: 'Too many promo code lookups. Please wait a minute and try again.',

  // spec §8: order errors
  slotsTaken: (slots: string): string =>
    `Time slot(s) taken ${slots}. Please go back and select another.`,
  missingBillboardContent:
    'Unable to send order due to missing billboard content. Please go back to add content.',
  missingGeneratedContent: 'Unable to send order due to missing generated content',
  missingContentMetadata: 'Failed to place order due to missing billboard content metadata',
  unknownError: 'An unknown error occurred. Please try again.',
  unknownErrorSorry: 'Sorry, an unknown error occurred',
  orderStatusTimeout: 'We were unable to complete your order at this time; please try again later',
  paymentAlreadySaved:
    "Payment method has already been saved. Refresh the page if you need to resubmit (you won't lose your billboard content).",
  noSlotsSelected: 'Please select at least one shout time',
  agreementRequired: (label: string): string => `Please accept the ${label} to place your order`,
  slotAlreadySelected: (slotNumber: number): string => `Slot ${slotNumber} is already selected`,
  slotNotSelected: (slotNumber: number): string => `Slot ${slotNumber} is not selected`,
  slotNotInEvent: (slotNumber: number): string => `Slot ${slotNumber} is not part of this event`,
  slotPastCutoff: (slotNumber: number): string =>
    `Slot ${slotNumber} starts in less than 5 hours and can no longer be bought`,
  idempotencyKeyReused:
    'This Idempotency-Key was already used with a different order. Use a new key for a new order.',
  idempotencyKeyMissing: 'The Idempotency-Key header is required',
  orderNotFound: 'Order not found',

  // spec §8: events, billboards, pages
  eventNotFound: 'Event not found',
  deviceNotFound: 'Billboard not found',
  soldOut: 'This Billboard is Sold Out',
  notAvailableFor: (eventName: string): string => `Not Available For ${eventName}`,
  pageDoesNotExist: "This page doesn't exist",
  pageNotFound: 'This page could not be found',
  applicationError: 'Application Error',
  unknownMiddleware: 'Unknown middleware',
  slotRangeInvalid: 'endEpochMs must be after startEpochMs',

  // payments (api-v1 local provider: Stripe's test-card outcomes)
  cardDeclined: 'Your card was declined.',
  cardInsufficientFunds: 'Your card has insufficient funds.',
  cardNumberInvalid: 'Your card number is invalid.',
  cardExpired: 'Your card has expired.',

  // spec §9: uploads
  uploadTooLarge: (maxBytes: number): string =>
    `The file is too large. The limit is ${Math.floor(maxBytes / (1024 * 1024))} MB.`,
  uploadWrongType:
    'This file type is not supported. Use a jpg, jpeg, gif or png image, or an mp4, wav, mpg, avi or wmv video.',

  // spec §5 and §9: notices
  purchaseCutoff:
    'Orders must be purchased 5 hours before play time (a 6:00pm-6:15pm play needs purchase before 1:00pm).',
  recommendedMinimum: 'At least 2 slots recommended',
  remainingDatesConfirmed: (days: number): string =>
    `Remaining dates confirmed ${days} day(s) before the selected time`,

  // spec §5: dates
  dateFormatInvalid: (value: string): string =>
    `Date/time '${value}' cannot be created because the format is invalid`,
  badWeekday: 'Bad weekday',
  badHour: 'Bad hour',

  // api-v1: request validation
  unknownField: 'is not an allowed field',
  requiredField: 'is required',
  // The reason given to a shopper whose order was cancelled by itself (its review outlived
  // its first slot); here rather than in ops.ts so the shop's first screen needs no operator rules
  reviewOutlivedFirstSlot: 'Your shout was still being reviewed when its first time slot began',
} as const

export type Messages = typeof messages

/** @deprecated see above: the sweep's cancel reason is AUTO_CANCEL_REASON (./ops.ts) */
export const opsMessages = { autoCancelReason: messages.reviewOutlivedFirstSlot } as const
