import type { I18n, MessageDescriptor } from '@lingui/core'
import { msg } from '@lingui/core/macro'
import {
  ERROR_CODES,
  type ErrorCode,
  isErrorCode,
  templateValues,
} from '../../contract/error-codes'
import { AGREEMENT_LABELS } from '../../domain/order-rules'
import { translateMessage } from './domain-messages'

// What the server refuses with, in the shopper's language, by the code the server sends
// beside its English (src/contract/error-codes.ts, the registry). A code of the registry without an
// entry here is a type error; error-messages.test.ts checks each English here is the registry's, word
// for word, and that French and German translate it. To add a code, see the registry's header.
export const ERROR_MESSAGES: Record<ErrorCode, MessageDescriptor> = {
  endpoint_not_found: msg({ message: 'No API endpoint {method} {path}' }),
  page_not_found: msg({ message: 'This page could not be found' }),
  address_contains_nul: msg({ message: 'The address contains a NUL character' }),
  value_not_storable: msg({ message: 'The request contains a value that cannot be stored' }),
  request_refused: msg({ message: 'The request was refused.' }),
  client_gone: msg({ message: 'The request was cancelled' }),
  unknown_error: msg({ message: 'An unknown error occurred. Please try again.' }),
  invalid_input: msg({ message: 'Some of what was sent is not valid.' }),
  body_too_large: msg({ message: 'The request body is too large (at most {kb} KB)' }),
  body_incomplete: msg({ message: 'The request body ended before it was complete' }),
  body_not_json: msg({ message: 'The request body must be JSON (Content-Type: application/json)' }),
  body_empty: msg({ message: 'The request body is empty; JSON expected' }),
  body_contains_nul: msg({ message: 'The request body must not contain NUL characters' }),
  body_too_deep: msg({
    message: 'The request body is nested too deeply (at most {levels} levels)',
  }),
  body_malformed: msg({ message: 'The request body is not valid JSON' }),
  body_not_expected: msg({ message: 'This request takes no body' }),
  too_many_requests: msg({
    message: 'Too many requests from this address: try again in {seconds} seconds',
  }),
  host_not_allowed: msg({
    message:
      'This server makes QR codes for its own address only: set PUBLIC_BASE_URL (or list the host in ALLOWED_HOSTS)',
  }),
  email_invalid: msg({ message: 'Email Address is invalid' }),
  phone_invalid: msg({ message: 'Phone number format invalid, try: XXX-XXX-XXXX' }),
  first_name_empty: msg({ message: 'First Name should not be empty' }),
  last_name_empty: msg({ message: 'Last Name should not be empty' }),
  first_name_too_long: msg({ message: 'First Name must be at most 100 characters' }),
  last_name_too_long: msg({ message: 'Last Name must be at most 100 characters' }),
  missing_billboard_content: msg({
    message:
      'Unable to send order due to missing billboard content. Please go back to add content.',
  }),
  missing_content_metadata: msg({
    message: 'Failed to place order due to missing billboard content metadata',
  }),
  no_slots_selected: msg({ message: 'Please select at least one shout time' }),
  agreement_required: msg({ message: 'Please accept the {label} to place your order' }),
  slot_range_invalid: msg({ message: 'endEpochMs must be after startEpochMs' }),
  event_not_found: msg({ message: 'Event not found' }),
  device_not_found: msg({ message: 'Billboard not found' }),
  device_not_in_event: msg({ message: 'No billboard {deviceId} in event {slug}' }),
  sold_out: msg({ message: 'This Billboard is Sold Out' }),
  not_available_for_event: msg({ message: 'Not Available For {event}' }),
  promo_invalid: msg({ message: 'Promo Code Invalid' }),
  promo_wrong_event: msg({ message: 'This promo code should not be used for this event' }),
  promo_once_per_customer: msg({ message: 'This promo code should be used once for this event' }),
  promo_too_many_lookups: msg({
    message: 'Too many promo code lookups. Please wait a minute and try again.',
  }),
  order_type_production: msg({ message: 'orderType: must be Standard on this server' }),
  one_billboard: msg({
    message: 'entries: an order is for one billboard; place one order per billboard',
  }),
  slot_not_in_event: msg({ message: 'Slot {slot} is not part of this event' }),
  slot_past_cutoff: msg({
    message: 'Slot {slot} starts in less than 5 hours and can no longer be bought',
  }),
  slots_taken: msg({ message: 'Time slot(s) taken {slots}. Please go back and select another.' }),
  checkout_mismatch: msg({
    message:
      'The payment details do not belong to this checkout. Please go back to Billing Info and enter your card again.',
  }),
  payment_already_saved: msg({
    message:
      "Payment method has already been saved. Refresh the page if you need to resubmit (you won't lose your billboard content).",
  }),
  setup_not_confirmed: msg({
    message:
      'Your card has not been saved yet. Please go back to Billing Info and enter your card details.',
  }),
  payment_unavailable: msg({
    message: 'Payments are unavailable right now. Please try again in a moment.',
  }),
  request_in_progress: msg({ message: 'An identical request is already being processed' }),
  idempotency_key_missing: msg({ message: 'The Idempotency-Key header is required' }),
  idempotency_key_invalid: msg({ message: 'The Idempotency-Key header is not valid' }),
  idempotency_key_reused: msg({
    message:
      'This Idempotency-Key was already used with a different order. Use a new key for a new order.',
  }),
  order_not_found: msg({ message: 'Order not found' }),
  local_cards_disabled: msg({ message: 'Cards are confirmed with Stripe on this server' }),
  payment_form_expired: msg({ message: 'This payment form has expired. Please refresh the page.' }),
  card_declined: msg({ message: 'Your card was declined.' }),
  insufficient_funds: msg({ message: 'Your card has insufficient funds.' }),
  lost_card: msg({ message: 'Your card was declined.' }),
  stolen_card: msg({ message: 'Your card was declined.' }),
  expired_card: msg({ message: 'Your card has expired.' }),
  incorrect_cvc: msg({ message: "Your card's security code is incorrect." }),
  incorrect_number: msg({ message: 'Your card number is invalid.' }),
  processing_error: msg({
    message: 'An error occurred while processing your card. Try again in a little bit.',
  }),
  upload_not_multipart: msg({
    message: 'Send the file as multipart/form-data in the field "file".',
  }),
  upload_malformed: msg({ message: 'The upload could not be read.' }),
  upload_no_file: msg({ message: 'No file: send it in the multipart field "file".' }),
  upload_empty: msg({ message: 'The file is empty.' }),
  upload_template_unknown: msg({ message: 'The template of this upload is unknown.' }),
  upload_too_large: msg({ message: 'The file is too large. The limit is {mb} MB.' }),
  image_too_large: msg({ message: 'The image is too large.' }),
  image_wrong_shape: msg({
    message: 'The image is too narrow: its long side may be at most 4 times its short side.',
  }),
  upload_wrong_type: msg({
    message:
      'This file type is not supported. Use a jpg, jpeg, gif or png image, or an mp4, wav, mpg, avi or wmv video.',
  }),
  image_unreadable: msg({
    message: 'This file could not be read as an image (jpg, jpeg, gif or png).',
  }),
  video_wrong_type: msg({
    message: 'This file could not be read as a video (mp4, mpg, avi or wmv).',
  }),
  upload_not_only_video: msg({ message: 'This file is not only a video.' }),
  upload_sound_only: msg({
    message:
      'A wav file is sound only: no template here pairs sound with a photo, and billboards play without sound. Upload a video (mp4, mpg, avi or wmv) or a photo.',
  }),
  upload_unsupported: msg({ message: 'This kind of upload cannot be processed here.' }),
  video_unreadable: msg({ message: 'This video could not be read. Upload another.' }),
  video_too_large: msg({
    message: 'This video is too large to be made into a shout. Upload a shorter or smaller one.',
  }),
  storage_full: msg({
    message: 'The shop cannot store files right now (its storage is full). Please try again later.',
  }),
  template_unknown: msg({ message: 'This design is unknown.' }),
  billboard_unknown: msg({ message: 'This billboard is unknown.' }),
  event_unknown: msg({ message: 'This event is unknown.' }),
  billboard_not_in_event: msg({ message: 'This billboard is not part of this event.' }),
  template_not_offered: msg({ message: 'This design is not offered for this event.' }),
  template_size_mismatch: msg({
    message: 'This design is not made for the screen of this billboard.',
  }),
  upload_unknown: msg({ message: 'The upload is unknown.' }),
  upload_kind_mismatch: msg({
    message: 'This template needs a {needed}, and the upload is a {kind}.',
  }),
  upload_processing: msg({
    message: 'The {kind} is still being processed: try again in a moment.',
  }),
  upload_failed: msg({ message: 'The upload could not be processed. Upload another.' }),
  upload_required: msg({ message: 'This template needs a {contentType}: upload one first.' }),
  content_type_unavailable: msg({ message: 'These designs are not available on this server.' }),
  video_needs_async: msg({
    message: 'Video shouts are made in the background: send the request with async true.',
  }),
  upload_not_found: msg({ message: 'Upload not found' }),
  job_not_found: msg({ message: 'Job not found' }),
  content_failed: msg({
    message: 'The content could not be made. Please try again or contact support.',
  }),
  content_not_ready: msg({ message: 'The content is not ready yet.' }),
  content_not_found: msg({ message: 'Content not found' }),
  file_not_found: msg({ message: 'File not found' }),
  template_not_found: msg({ message: 'Template not found' }),
  template_no_example_clip: msg({ message: 'This template has no example clip.' }),
  template_render_failed: msg({ message: 'This template cannot be rendered.' }),
  player_token_missing: msg({
    message: 'A player token is required (Authorization: Bearer or ?token=)',
  }),
  player_token_invalid: msg({ message: 'This player token is unknown or was replaced' }),
  to_before_from: msg({ message: 'toEpochMs must be after fromEpochMs' }),
  window_too_long: msg({ message: 'The window must be at most 48 hours' }),
  database_unreachable: msg({ message: 'The database does not answer' }),
  migrations_pending: msg({ message: 'Migrations not applied: {migrations}' }),
  storage_unwritable: msg({ message: 'Content storage does not take a write' }),
  shutting_down: msg({ message: 'The server is shutting down' }),
  metrics_off: msg({ message: 'Metrics are off' }),
  metrics_token_required: msg({ message: 'The metrics token is required' }),
  feature_flags_not_found: msg({ message: "No feature flags for the product '{product}'" }),
  cross_origin: msg({ message: "This request must come from the shop's own pages" }),
  sign_in_required: msg({ message: 'Sign in to continue' }),
  role_forbidden: msg({ message: 'Your role does not allow this' }),
  wrong_credentials: msg({ message: 'Wrong e-mail or password' }),
  sign_in_limited: msg({ message: 'Too many sign-in attempts: try again in {seconds} seconds' }),
  password_weak: msg({ message: 'The password must be at least {min} characters long' }),
  link_invalid: msg({
    message: 'This link is not valid any more: ask an administrator for a new one',
  }),
  operator_exists: msg({ message: 'This operator exists already' }),
  operator_not_found: msg({ message: 'No operator with this e-mail' }),
  not_under_review: msg({ message: 'This order is not under review' }),
  not_cancellable: msg({ message: 'This order cannot be cancelled' }),
  reviewers_refuse_only: msg({ message: 'Reviewers can only refuse orders under review' }),
  catalogue_not_json: msg({ message: 'The catalogue file is not JSON' }),
  catalogue_invalid: msg({ message: 'The catalogue file has problems' }),
  catalogue_not_previewed: msg({
    message: 'This is not the file that was previewed: preview it again first',
  }),
  mail_not_found: msg({ message: 'No such mail' }),
}

// Values the server puts in that are English words themselves: translated before they go in.
const VALUE_WORDS: Record<string, MessageDescriptor> = {
  photo: msg`photo`,
  video: msg`video`,
  [AGREEMENT_LABELS.safetyWarning]: msg`safety warning`,
  [AGREEMENT_LABELS.terms]: msg`terms and conditions`,
  [AGREEMENT_LABELS.noChanges]: msg`no-changes acknowledgement`,
  [AGREEMENT_LABELS.privacyPolicy]: msg`privacy policy`,
}

const CODES = Object.keys(ERROR_CODES) as ErrorCode[]

function translated(i18n: I18n, code: ErrorCode, values: Record<string, string>): string {
  const words = Object.fromEntries(
    Object.entries(values).map(([name, value]) => {
      const word = VALUE_WORDS[value]
      return [name, word ? i18n._(word) : value]
    }),
  )
  // built apart from the call: Lingui's extractor reads an object given to i18n._ as a message
  const descriptor: MessageDescriptor = { ...ERROR_MESSAGES[code], values: words }
  return i18n._(descriptor)
}

/** The translation of a code for the server's text, or null when the text lacks the code's values. */
function byCode(i18n: I18n, code: ErrorCode, text: string): string | null {
  const template = ERROR_CODES[code]
  const values = templateValues(template, text)
  if (values) return translated(i18n, code, values)
  // The server's text carries details the registry's sentence leaves out: the sentence says it, when
  // it has no value of the text to fill in.
  return /\{\w+\}/.test(template) ? null : translated(i18n, code, {})
}

/**
 * A message of the server (or of the domain) in the shopper's language. By its code when the answer
 * gave one; a text kept without its code (an order's errors, an upload's or a job's failure, which
 * the server stores as text) is matched against the registry's English to find it. A text of no
 * known code is a domain sentence (domain-messages.ts), else shown as sent: in English, or as the
 * translation of `general` when one is given (a failed upload's reason from a video tool).
 */
export function translateError(
  i18n: I18n,
  text: string,
  code?: string | null,
  general?: ErrorCode,
): string {
  if (code && isErrorCode(code)) {
    const found = byCode(i18n, code, text)
    if (found !== null) return found
  }
  for (const candidate of CODES) {
    const values = templateValues(ERROR_CODES[candidate], text)
    if (values) return translated(i18n, candidate, values)
  }
  const domain = translateMessage(i18n, text)
  if (domain !== text || !general || i18n.locale === 'en') return domain
  return translated(i18n, general, {})
}
