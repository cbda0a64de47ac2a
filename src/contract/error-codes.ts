// Every code the server can send in the `codes` of an error body ({errors, codes}), with its
// English text. The server's `problem(code, text)` takes only a code of this table (its type), so a
// code not written here cannot be sent; the app translates by code (src/app/lib/error-messages.ts, a
// `Record<ErrorCode, …>`: a code without an app entry is a type error) and falls back to the English
// text the server sent for a code it does not know (an older app, a newer server).
//
// To add a code:
//   1. a line here: `the_code: 'The English text.'`, with `{name}` for a value the server puts in
//      (the same `{name}` Lingui uses), in the group of its module;
//   2. `npm run typecheck` names the app's table (src/app/lib/error-messages.ts): add
//      `the_code: msg({ message: 'The English text.' })` there, word for word;
//   3. `npm run lingui:extract`, then its French and German in src/locale/locales/{fr,de}/messages.po.
// src/app/lib/error-messages.test.ts fails on a code whose English differs from the app's, or that
// has no French or German translation.
//
// The English is the text the server sends, with `{name}` where it puts a value. Where the server's
// text carries details written elsewhere (a video tool's reason, a parser's message), the English
// here is the general sentence, and the app shows the translation of that general sentence.

export const ERROR_CODES = {
  // ---- any request (src/server/app.ts, platform/http/json.ts, platform/rate-limit.ts)
  endpoint_not_found: 'No API endpoint {method} {path}',
  page_not_found: 'This page could not be found',
  address_contains_nul: 'The address contains a NUL character',
  value_not_storable: 'The request contains a value that cannot be stored',
  request_refused: 'The request was refused.',
  client_gone: 'The request was cancelled',
  unknown_error: 'An unknown error occurred. Please try again.',
  invalid_input: 'Some of what was sent is not valid.',
  body_too_large: 'The request body is too large (at most {kb} KB)',
  body_incomplete: 'The request body ended before it was complete',
  body_not_json: 'The request body must be JSON (Content-Type: application/json)',
  body_empty: 'The request body is empty; JSON expected',
  body_contains_nul: 'The request body must not contain NUL characters',
  body_too_deep: 'The request body is nested too deeply (at most {levels} levels)',
  body_malformed: 'The request body is not valid JSON',
  body_not_expected: 'This request takes no body',
  too_many_requests: 'Too many requests from this address: try again in {seconds} seconds',
  host_not_allowed:
    'This server makes QR codes for its own address only: set PUBLIC_BASE_URL (or list the host in ALLOWED_HOSTS)',

  // ---- the spec's sentences a schema refuses with (src/domain/messages.ts, spec §5)
  email_invalid: 'Email Address is invalid',
  phone_invalid: 'Phone number format invalid, try: XXX-XXX-XXXX',
  first_name_empty: 'First Name should not be empty',
  last_name_empty: 'Last Name should not be empty',
  first_name_too_long: 'First Name must be at most 100 characters',
  last_name_too_long: 'Last Name must be at most 100 characters',
  missing_billboard_content:
    'Unable to send order due to missing billboard content. Please go back to add content.',
  missing_content_metadata: 'Failed to place order due to missing billboard content metadata',
  no_slots_selected: 'Please select at least one shout time',
  agreement_required: 'Please accept the {label} to place your order',
  slot_range_invalid: 'endEpochMs must be after startEpochMs',

  // ---- events, billboards, promo codes (spotlight/, promo/; spec §5, §8)
  event_not_found: 'Event not found',
  device_not_found: 'Billboard not found',
  device_not_in_event: 'No billboard {deviceId} in event {slug}',
  sold_out: 'This Billboard is Sold Out',
  not_available_for_event: 'Not Available For {event}',
  promo_invalid: 'Promo Code Invalid',
  promo_wrong_event: 'This promo code should not be used for this event',
  promo_once_per_customer: 'This promo code should be used once for this event',
  promo_too_many_lookups: 'Too many promo code lookups. Please wait a minute and try again.',

  // ---- orders (order/; spec §8, api-v1 "Order")
  order_type_production: 'orderType: must be Standard on this server',
  one_billboard: 'entries: an order is for one billboard; place one order per billboard',
  slot_not_in_event: 'Slot {slot} is not part of this event',
  slot_past_cutoff: 'Slot {slot} starts in less than 5 hours and can no longer be bought',
  slots_taken: 'Time slot(s) taken {slots}. Please go back and select another.',
  checkout_mismatch:
    'The payment details do not belong to this checkout. Please go back to Billing Info and enter your card again.',
  payment_already_saved:
    "Payment method has already been saved. Refresh the page if you need to resubmit (you won't lose your billboard content).",
  setup_not_confirmed:
    'Your card has not been saved yet. Please go back to Billing Info and enter your card details.',
  payment_unavailable: 'Payments are unavailable right now. Please try again in a moment.',
  request_in_progress: 'An identical request is already being processed',
  idempotency_key_missing: 'The Idempotency-Key header is required',
  idempotency_key_invalid: 'The Idempotency-Key header is not valid',
  idempotency_key_reused:
    'This Idempotency-Key was already used with a different order. Use a new key for a new order.',
  order_not_found: 'Order not found',
  local_cards_disabled: 'Cards are confirmed with Stripe on this server',
  payment_form_expired: 'This payment form has expired. Please refresh the page.',

  // ---- card declines: Stripe's decline codes (docs.stripe.com/declines/codes), as Stripe.js names
  // them; a decline code not listed here is sent as card_declined (src/server/order/routes.ts)
  card_declined: 'Your card was declined.',
  insufficient_funds: 'Your card has insufficient funds.',
  lost_card: 'Your card was declined.',
  stolen_card: 'Your card was declined.',
  expired_card: 'Your card has expired.',
  incorrect_cvc: "Your card's security code is incorrect.",
  incorrect_number: 'Your card number is invalid.',
  processing_error: 'An error occurred while processing your card. Try again in a little bit.',

  // ---- uploads (content/processors.ts UploadErrorCode; spec §9)
  upload_not_multipart: 'Send the file as multipart/form-data in the field "file".',
  upload_malformed: 'The upload could not be read.',
  upload_no_file: 'No file: send it in the multipart field "file".',
  upload_empty: 'The file is empty.',
  upload_template_unknown: 'The template of this upload is unknown.',
  upload_too_large: 'The file is too large. The limit is {mb} MB.',
  image_too_large: 'The image is too large.',
  image_wrong_shape:
    'The image is too narrow: its long side may be at most 4 times its short side.',
  upload_wrong_type:
    'This file type is not supported. Use a jpg, jpeg, gif or png image, or an mp4, wav, mpg, avi or wmv video.',
  image_unreadable: 'This file could not be read as an image (jpg, jpeg, gif or png).',
  video_wrong_type: 'This file could not be read as a video (mp4, mpg, avi or wmv).',
  upload_not_only_video: 'This file is not only a video.',
  upload_sound_only:
    'A wav file is sound only: no template here pairs sound with a photo, and billboards play without sound. Upload a video (mp4, mpg, avi or wmv) or a photo.',
  upload_unsupported: 'This kind of upload cannot be processed here.',
  video_unreadable: 'This video could not be read. Upload another.',
  video_too_large:
    'This video is too large to be made into a shout. Upload a shorter or smaller one.',
  storage_full:
    'The shop cannot store files right now (its storage is full). Please try again later.',

  // ---- content generation (content/generate.ts, content/errors.ts)
  template_unknown: 'This design is unknown.',
  billboard_unknown: 'This billboard is unknown.',
  event_unknown: 'This event is unknown.',
  billboard_not_in_event: 'This billboard is not part of this event.',
  template_not_offered: 'This design is not offered for this event.',
  template_size_mismatch: 'This design is not made for the screen of this billboard.',
  upload_unknown: 'The upload is unknown.',
  upload_kind_mismatch: 'This template needs a {needed}, and the upload is a {kind}.',
  upload_processing: 'The {kind} is still being processed: try again in a moment.',
  upload_failed: 'The upload could not be processed. Upload another.',
  upload_required: 'This template needs a {contentType}: upload one first.',
  content_type_unavailable: 'These designs are not available on this server.',
  video_needs_async: 'Video shouts are made in the background: send the request with async true.',
  upload_not_found: 'Upload not found',
  job_not_found: 'Job not found',
  content_failed: 'The content could not be made. Please try again or contact support.',
  content_not_ready: 'The content is not ready yet.',
  content_not_found: 'Content not found',
  file_not_found: 'File not found',
  template_not_found: 'Template not found',
  template_no_example_clip: 'This template has no example clip.',
  template_render_failed: 'This template cannot be rendered.',

  // ---- the billboards' players (player/)
  player_token_missing: 'A player token is required (Authorization: Bearer or ?token=)',
  player_token_invalid: 'This player token is unknown or was replaced',
  to_before_from: 'toEpochMs must be after fromEpochMs',
  window_too_long: 'The window must be at most 48 hours',

  // ---- the server about itself (meta/)
  database_unreachable: 'The database does not answer',
  migrations_pending: 'Migrations not applied: {migrations}',
  storage_unwritable: 'Content storage does not take a write',
  shutting_down: 'The server is shutting down',
  metrics_off: 'Metrics are off',
  metrics_token_required: 'The metrics token is required',
  feature_flags_not_found: "No feature flags for the product '{product}'",

  // ---- operators: sign-in, the console, the outbox (auth/, ops/, backoffice/, mail/).
  // The console shows these through its own catalog; the shop's table has them for completeness.
  cross_origin: "This request must come from the shop's own pages",
  sign_in_required: 'Sign in to continue',
  role_forbidden: 'Your role does not allow this',
  wrong_credentials: 'Wrong e-mail or password',
  sign_in_limited: 'Too many sign-in attempts: try again in {seconds} seconds',
  // {min}: PASSWORD_MIN_LENGTH, put in by the domain's sentence (opsMessages.passwordTooShort)
  password_weak: 'The password must be at least {min} characters long',
  link_invalid: 'This link is not valid any more: ask an administrator for a new one',
  operator_exists: 'This operator exists already',
  operator_not_found: 'No operator with this e-mail',
  not_under_review: 'This order is not under review',
  not_cancellable: 'This order cannot be cancelled',
  reviewers_refuse_only: 'Reviewers can only refuse orders under review',
  catalogue_not_json: 'The catalogue file is not JSON',
  catalogue_invalid: 'The catalogue file has problems',
  catalogue_not_previewed: 'This is not the file that was previewed: preview it again first',
  mail_not_found: 'No such mail',
} as const satisfies Record<string, string>

export type ErrorCode = keyof typeof ERROR_CODES

export const isErrorCode = (code: string): code is ErrorCode => Object.hasOwn(ERROR_CODES, code)

const DECLINE_CODES: ReadonlySet<string> = new Set<ErrorCode>([
  'card_declined',
  'insufficient_funds',
  'lost_card',
  'stolen_card',
  'expired_card',
  'incorrect_cvc',
  'incorrect_number',
  'processing_error',
])

/** Stripe's decline code as sent, or card_declined for one this table does not name. */
export const declineErrorCode = (declineCode: string): ErrorCode =>
  DECLINE_CODES.has(declineCode) ? (declineCode as ErrorCode) : 'card_declined'

const escapeRegExp = (text: string) => text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')

/**
 * The values of a text made from a template with `{name}` placeholders ('Slot {slot} is not part of
 * this event' and 'Slot 12 is not part of this event' give {slot: '12'}), or null when the text is
 * not made from it.
 */
export function templateValues(template: string, text: string): Record<string, string> | null {
  const names: string[] = []
  const pattern = template
    .split(/(\{\w+\})/)
    .map((part) => {
      const name = /^\{(\w+)\}$/.exec(part)?.[1]
      if (!name) return escapeRegExp(part)
      names.push(name)
      return '(.+?)'
    })
    .join('')
  const match = new RegExp(`^${pattern}$`, 's').exec(text)
  if (!match) return null
  return Object.fromEntries(names.map((name, i) => [name, match[i + 1] ?? '']))
}

/** A template with its placeholders filled. */
export const fillTemplate = (template: string, values: Record<string, string | number>): string =>
  template.replace(/\{(\w+)\}/g, (whole, name: string) =>
    name in values ? String(values[name]) : whole,
  )
