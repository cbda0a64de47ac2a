// Problems of the shop: the spec's sentences, events and billboards, promo codes, orders, payments, and
// after the sale (catalogue/, order/, payment/, push/, share/).
// A part of the one catalogue (./problems.ts says how it is read and how to add a code).

export const SHOP_PROBLEMS = {
  // ---- the spec's sentences (spec §5, §8): contact details, the order flow
  email_invalid: { status: 400, en: 'Email Address is invalid' },
  phone_invalid: { status: 400, en: 'Phone number format invalid, try: XXX-XXX-XXXX' },
  phone_invalid_for_country: {
    status: 400,
    en: 'Phone number format invalid, try: {example}, or an international number starting with +',
  },
  first_name_empty: { status: 400, en: 'First Name should not be empty' },
  last_name_empty: { status: 400, en: 'Last Name should not be empty' },
  first_name_too_long: { status: 400, en: 'First Name must be at most 100 characters' },
  last_name_too_long: { status: 400, en: 'Last Name must be at most 100 characters' },
  missing_billboard_content: {
    status: 400,
    en: 'Unable to send order due to missing billboard content. Please go back to add content.',
  },
  missing_generated_content: {
    status: 400,
    en: 'Unable to send order due to missing generated content',
  },
  missing_content_metadata: {
    status: 400,
    en: 'Failed to place order due to missing billboard content metadata',
  },
  no_slots_selected: { status: 400, en: 'Please select at least one shout time' },
  agreement_required: {
    status: 400,
    en: 'Please accept the {agreement} to place your order',
  },
  slot_already_selected: { status: 409, en: 'Slot {slot} is already selected' },
  slot_not_selected: { status: 400, en: 'Slot {slot} is not selected' },
  slot_range_invalid: { status: 400, en: 'endEpochMs must be after startEpochMs' },
  date_format_invalid: {
    status: 400,
    en: "Date/time '{value}' cannot be created because the format is invalid",
  },
  bad_weekday: { status: 400, en: 'Bad weekday' },
  bad_hour: { status: 400, en: 'Bad hour' },
  // the app's own failures while it sends an order (spec §8)
  unknown_error_sorry: { status: 500, en: 'Sorry, an unknown error occurred' },
  order_status_timeout: {
    status: 504,
    en: 'We were unable to complete your order at this time; please try again later',
  },
  promo_problem: { status: 422, en: 'There was a problem with your promo code {promoCode}' },

  // ---- events, billboards, promo codes (spotlight/, promo/; spec §5, §8)
  event_not_found: { status: 404, en: 'Event not found' },
  device_not_found: { status: 404, en: 'Billboard not found' },
  device_not_in_event: { status: 404, en: 'No billboard {deviceId} in event {slug}' },
  sold_out: { status: 409, en: 'This Billboard is Sold Out' },
  not_available_for_event: { status: 409, en: 'Not Available For {event}' },
  // api-v1: a lookup answers 404; an order naming it cannot be placed as sent: 422
  promo_invalid: { status: 404, en: 'Promo Code Invalid' },
  promo_wrong_event: { status: 422, en: 'This promo code should not be used for this event' },
  promo_once_per_customer: {
    status: 422,
    en: 'This promo code should be used once for this event',
  },
  promo_too_many_lookups: {
    status: 429,
    en: 'Too many promo code lookups. Please wait a minute and try again.',
  },

  // ---- orders (order/; spec §8, api-v1 "Order")
  order_type_production: { status: 400, en: 'orderType: must be Standard on this server' },
  one_billboard: {
    status: 400,
    en: 'entries: an order is for one billboard; place one order per billboard',
  },
  slot_not_in_event: { status: 400, en: 'Slot {slot} is not part of this event' },
  slot_past_cutoff: {
    status: 400,
    en: 'Slot {slot} starts in less than 5 hours and can no longer be bought',
  },
  slots_taken: {
    status: 409,
    en: 'Time slot(s) taken {slots}. Please go back and select another.',
  },
  checkout_mismatch: {
    status: 400,
    en: 'The payment details do not belong to this checkout. Please go back to Billing Info and enter your card again.',
  },
  payment_already_saved: {
    status: 409,
    en: "Payment method has already been saved. Refresh the page if you need to resubmit (you won't lose your billboard content).",
  },
  setup_not_confirmed: {
    status: 400,
    en: 'Your card has not been saved yet. Please go back to Billing Info and enter your card details.',
  },
  payment_unavailable: {
    status: 503,
    en: 'Payments are unavailable right now. Please try again in a moment.',
  },
  // Stripe's events (POST /payment/stripe/webhook)
  webhook_signature_invalid: {
    status: 400,
    en: "The Stripe-Signature header does not sign this body with the webhook's secret",
  },
  webhooks_not_configured: { status: 404, en: 'This shop takes no Stripe events' },
  request_in_progress: { status: 409, en: 'An identical request is already being processed' },
  idempotency_key_missing: { status: 400, en: 'The Idempotency-Key header is required' },
  idempotency_key_invalid: { status: 400, en: 'The Idempotency-Key header is not valid' },
  idempotency_key_reused: {
    status: 422,
    en: 'This Idempotency-Key was already used with a different order. Use a new key for a new order.',
  },
  order_not_found: { status: 404, en: 'Order not found' },
  local_cards_disabled: { status: 404, en: 'Cards are confirmed with Stripe on this server' },
  payment_form_expired: {
    status: 404,
    en: 'This payment form has expired. Please refresh the page.',
  },
  // an operator cancelled the order (or refused it): the reason is the operator's own words
  order_cancelled: { status: 409, en: '{reason}' },
  review_outlived_first_slot: {
    status: 409,
    en: 'Your shout was still being reviewed when its first time slot began',
  },

  // ---- card declines: Stripe's decline codes (docs.stripe.com/declines/codes) and the texts
  // Stripe.js shows; one Stripe does not name here (lost_card, stolen_card among them: Stripe
  // advises telling the cardholder no more than "declined") goes out as card_declined
  card_declined: { status: 402, en: 'Your card was declined.' },
  insufficient_funds: { status: 402, en: 'Your card has insufficient funds.' },
  expired_card: { status: 402, en: 'Your card has expired.' },
  incorrect_cvc: { status: 402, en: "Your card's security code is incorrect." },
  incorrect_number: { status: 402, en: 'Your card number is invalid.' },
  processing_error: {
    status: 402,
    en: 'An error occurred while processing your card. Try again in a little bit.',
  },
  // 3-D Secure: the bank asks the cardholder to confirm the charge (payment/, order/authentication.ts)
  authentication_required: { status: 402, en: 'Your bank asks you to confirm this payment.' },
  authentication_failed: { status: 402, en: 'Your bank did not confirm the payment.' },
  authentication_timed_out: {
    status: 402,
    en: 'The payment was not confirmed with your bank within {minutes} minutes.',
  },

  // ---- after the sale: play alerts (push/) and keepsake pages (share/)
  push_endpoint_invalid: { status: 400, en: '{field}: must be an https address of a push service' },
  push_key_invalid: { status: 400, en: "{field}: is not one of the browser's push keys" },
  push_service_not_allowed: {
    status: 400,
    en: 'The shop does not send alerts to this push service',
  },
  push_subscription_not_found: { status: 404, en: 'This browser is not told about this order' },
  play_alerts_closed: { status: 409, en: 'This order will not play: there is nothing to be told' },
  // why an alert did not reach a browser (kept with the alert in sent_pushes)
  push_subscription_gone: { status: 410, en: 'The browser ended its subscription to alerts' },
  push_service_refused: { status: 502, en: 'The push service refused the alert ({status})' },
  push_service_unreachable: { status: 502, en: 'The push service did not answer' },
  play_alerts_over: {
    status: 409,
    en: 'Every slot of this order is over: there is nothing left to tell',
  },
  share_not_allowed: {
    status: 409,
    en: 'Only a confirmed order can be shared: this one is not confirmed',
  },
  share_not_found: { status: 404, en: 'This order is not shared' },
} as const
