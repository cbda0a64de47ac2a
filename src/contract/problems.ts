import type {
  DomainProblemCode,
  ProblemData,
  ProblemParam,
  ProblemParams,
} from '../domain/problems'
import { type WORD_PARAMS, wordTableOf } from './problem-words'

// The one catalogue of problems: every code the server, the rules (src/domain/problems.ts) or the
// app can name, with its HTTP status and its English text, written here and nowhere else. `{name}` in
// a text is a value the problem carries in its params; a value that is a key ('terms', 'photo') is
// written as the word of its table (WORDS below; which params are keys: ./problem-words.ts);
// `{name, number}` is a number written with its grouping (16,384), as Lingui's ICU writes it.
//
// Who reads it: the server's HTTP edge writes `errors` from it (src/server/platform/http/errors.ts),
// the mails and the CLIs their English; Lingui's extraction reads it (lingui.config.ts), so each code
// is a message of the catalogs (src/locale) whose id is the code: the app translates a problem by its
// code (src/app/lib/problem-text.ts), never by its English. The app never imports this file (its
// English would weigh on the first screen); it imports types only.
//
// To add a code: a line here, in the group of its module, with its status and text (no other code may
// have the same text); `npm run lingui:extract`; its French and German in src/locale/locales/{fr,de}
// and src/locale/ops/{fr,de} (the catalog test names what is missing).

/** Tables of words a value stands for: the key travels, the word is written. */
export const WORDS = {
  // spec §5: the four agreements, by their key in the order's `agreements`
  agreement: {
    safetyWarning: 'safety warning',
    terms: 'terms and conditions',
    noChanges: 'no-changes acknowledgement',
    privacyPolicy: 'privacy policy',
  },
  contentType: { photo: 'photo', video: 'video' },
  contentTypeTitle: { photo: 'Photo', video: 'Video' },
  // a campaign's states (api-v1 "Advertisers")
  campaignState: {
    Draft: 'a draft',
    Proposed: 'proposed',
    Booked: 'booked',
    Approved: 'approved',
    Live: 'live',
    Paused: 'paused',
    Completed: 'completed',
    Rejected: 'rejected',
    Cancelled: 'cancelled',
  },
  // what a catalogue file names twice (catalogue/format.ts)
  catalogueId: {
    deviceId: 'deviceId',
    templateId: 'template id',
    eventSlug: 'event slug',
    promoCode: 'promoCode',
  },
  // what else a file that claims to be a video is (src/server/video/sniff.ts)
  fileKind: {
    png: 'a PNG image',
    jpeg: 'a JPEG image',
    gif: 'a GIF image',
    webp: 'a WebP image',
    tiff: 'a TIFF image',
    pdf: 'a PDF document',
    zip: 'a ZIP archive',
    markup: 'HTML or script',
  },
} as const satisfies Record<string, Record<string, string>>

export type WordTable = keyof typeof WORDS

type Entry = { readonly status: number; readonly en: string }

export const PROBLEMS = {
  // ---- any request (src/server/app.ts, platform/http/json.ts, platform/rate-limit.ts)
  endpoint_not_found: { status: 404, en: 'No API endpoint {method} {path}' },
  page_not_found: { status: 404, en: 'This page could not be found' },
  address_contains_nul: { status: 400, en: 'The address contains a NUL character' },
  value_not_storable: { status: 400, en: 'The request contains a value that cannot be stored' },
  // a library refused the request with a 4xx of its own (its status is kept, its words are logged)
  request_refused: { status: 400, en: 'The request was refused.' },
  client_gone: { status: 400, en: 'The request was cancelled' },
  unknown_error: { status: 500, en: 'An unknown error occurred. Please try again.' },
  // the app: an answer its endpoint's schema refuses
  answer_unexpected: { status: 502, en: 'Unexpected answer from {path}: {detail}' },
  // spec §7: a session token the old backend could not read, or an expired one (/account)
  session_token_unreadable: { status: 401, en: 'Unable to parse a token from this string' },
  session_token_expired: {
    status: 401,
    en: 'Failing JWT token read/validate - token expired',
  },
  body_too_large: { status: 413, en: 'The request body is too large (at most {kb} KB)' },
  body_incomplete: { status: 400, en: 'The request body ended before it was complete' },
  body_not_json: {
    status: 400,
    en: 'The request body must be JSON (Content-Type: application/json)',
  },
  body_empty: { status: 400, en: 'The request body is empty; JSON expected' },
  body_contains_nul: { status: 400, en: 'The request body must not contain NUL characters' },
  body_too_deep: {
    status: 400,
    en: 'The request body is nested too deeply (at most {levels} levels)',
  },
  body_malformed: { status: 400, en: 'The request body is not valid JSON' },
  body_not_expected: { status: 413, en: 'This request takes no body' },
  too_many_requests: {
    status: 429,
    en: 'Too many requests from this address: try again in {seconds} seconds',
  },
  host_not_allowed: {
    status: 400,
    en: 'This server makes QR codes for its own address only: set PUBLIC_BASE_URL (or list the host in ALLOWED_HOSTS)',
  },

  // ---- a value of a request that its schema refuses (src/contract/common.ts): the field's path,
  // then what is wrong with it
  invalid_input: { status: 400, en: '{detail}' },
  field_invalid: { status: 400, en: '{field}: {detail}' },
  field_required: { status: 400, en: '{field}: is required' },
  field_not_allowed: { status: 400, en: '{field}: is not an allowed field' },
  field_empty: { status: 400, en: '{field}: must not be empty' },
  text_ill_formed: { status: 400, en: '{field}: must be well-formed Unicode text' },
  name_not_one_line: {
    status: 400,
    en: '{field}: must be one line, without line breaks or control characters',
  },
  whole_number_required: { status: 400, en: '{field}: must be a whole number' },
  whole_ms_required: { status: 400, en: '{field}: must be a whole number of milliseconds' },
  number_too_small: { status: 400, en: '{field}: must be at least {min}' },
  number_too_large: { status: 400, en: '{field}: must be at most {max}' },
  slug_invalid: { status: 400, en: '{field}: must be lowercase words joined by hyphens' },
  time_zone_invalid: {
    status: 400,
    en: '{field}: must be an IANA time zone name such as Europe/Paris',
  },
  currency_invalid: {
    status: 400,
    en: '{field}: must be a three-letter ISO 4217 code such as USD',
  },
  date_invalid: { status: 400, en: '{field}: must be a date such as 2027-05-08' },
  day_invalid: { status: 400, en: '{field}: must be YYYY-MM-DD' },
  sha256_invalid: { status: 400, en: '{field}: must be a SHA-256 hex' },
  cvc_invalid: { status: 400, en: '{field}: must be 3 or 4 digits' },
  slot_listed_twice: { status: 400, en: '{field}: must not list a slot twice' },
  billboard_listed_twice: { status: 400, en: '{field}: must not list a billboard twice' },
  uuid_invalid: { status: 400, en: '{field}: must be a UUID' },
  date_hour_invalid: { status: 400, en: '{field}: must be yyyy-MM-dd_HH' },
  date_hour_not_real: { status: 400, en: '{field}: must be a real calendar date and hour' },
  slot_length_invalid: { status: 400, en: '{field}: must divide a day (86400000 ms) exactly' },
  sort_direction_invalid: { status: 400, en: '{field}: must be asc or desc' },
  end_before_start: { status: 400, en: '{field}: must be after startDateHourLocalInclusive' },
  date_not_real: { status: 400, en: '{field}: must be a real date' },

  // ---- the spec's sentences (spec §5, §8): contact details, the order flow
  email_invalid: { status: 400, en: 'Email Address is invalid' },
  phone_invalid: { status: 400, en: 'Phone number format invalid, try: XXX-XXX-XXXX' },
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

  // ---- uploads (content/receive.ts, image.ts, video.ts and src/server/video; spec §9)
  upload_not_multipart: {
    status: 400,
    en: 'Send the file as multipart/form-data in the field "file".',
  },
  upload_multipart_invalid: {
    status: 400,
    en: 'The upload is not valid multipart/form-data: {reason}',
  },
  upload_read_failed: { status: 400, en: 'The upload could not be read: {reason}' },
  upload_malformed: { status: 400, en: 'The upload could not be read.' },
  upload_no_file: { status: 400, en: 'No file: send it in the multipart field "file".' },
  upload_empty: { status: 400, en: 'The file is empty.' },
  upload_template_unknown: {
    status: 400,
    en: 'generatorId: unknown template "{generatorId}"',
  },
  upload_too_large: { status: 413, en: 'The file is too large. The limit is {mb} MB.' },
  upload_wrong_type: {
    status: 415,
    en: 'This file type is not supported. Use a jpg, jpeg, gif or png image, or an mp4, wav, mpg, avi or wmv video.',
  },
  upload_unsupported: { status: 415, en: 'This kind of upload cannot be processed here.' },
  upload_processing_failed: { status: 422, en: 'The file could not be processed.' },
  image_unreadable: {
    status: 415,
    en: 'This file could not be read as an image (jpg, jpeg, gif or png).',
  },
  image_too_large: {
    status: 413,
    en: 'The image is too large: at most {maxSide, number} pixels a side (this one is {width}×{height}).',
  },
  image_too_many_pixels: {
    status: 413,
    en: 'The image is too large: at most {megapixels} megapixels (this one is {width}×{height}).',
  },
  image_pixel_limit: {
    status: 413,
    en: 'The image is too large: at most {megapixels} megapixels.',
  },
  // a picture of a needle's shape: readable, but not one to show
  image_wrong_shape: {
    status: 422,
    en: 'The image is too narrow: its long side may be at most {ratio} times its short side (this one is {width}×{height}).',
  },
  video_wrong_type: {
    status: 415,
    en: 'This file is not a supported video (mp4, mpg, avi, wmv or wav).',
  },
  video_other_file: {
    status: 415,
    en: 'This file is {other}, not a video (mp4, mpg, avi, wmv or wav).',
  },
  // a file that reads as a video and as something else (a GIFAR-style attack)
  upload_not_only_video: {
    status: 415,
    en: 'This file claims to be a {format} video but is also {other}; it was refused.',
  },
  video_polyglot: { status: 415, en: 'This file is not only a video.' },
  upload_sound_only: {
    status: 415,
    en: 'A wav file is sound only: no template here pairs sound with a photo, and billboards play without sound. Upload a video (mp4, mpg, avi or wmv) or a photo.',
  },
  video_sound_only: {
    status: 422,
    en: 'A wav file has no pictures: it can only go with a template that pairs sound with a photo.',
  },
  video_container_mismatch: {
    status: 422,
    en: 'This file starts like a {format} video but its contents are not one.',
  },
  video_no_pictures: {
    status: 422,
    en: 'This file has no pictures: it cannot be played as a video.',
  },
  video_empty: { status: 422, en: 'This file holds neither pictures nor sound.' },
  // what ffmpeg or ffprobe said, without the server's paths
  video_unreadable: { status: 422, en: 'This video could not be read: {reason}' },
  // past VIDEO_LIMITS: a side, the frame rate or the pixels a second
  video_too_large: {
    status: 413,
    en: 'The video is too large: at most {maxSide}×{maxSide} pixels (this one is {width}×{height}).',
  },
  video_frame_rate_too_high: {
    status: 413,
    en: 'The video has too many pictures a second: at most {max} (this one has {frameRate}).',
  },
  video_pixel_rate_too_high: {
    status: 413,
    en: 'The video is too large for its frame rate: {width}×{height} at {frameRate} pictures a second is more than 4K at 60. Upload a smaller or slower video.',
  },
  // the shop's disk or quota is full: not the shopper's fault, try later
  storage_full: {
    status: 507,
    en: 'The shop cannot store files right now (its storage is full). Please try again later.',
  },

  // ---- content generation (content/generate.ts): a request that names something wrong
  template_unknown: {
    status: 400,
    en: 'contentGenerationRequest.generatorId: unknown template "{generatorId}"',
  },
  billboard_unknown: {
    status: 400,
    en: 'contentGenerationRequest.deviceId: unknown billboard "{deviceId}"',
  },
  event_unknown: {
    status: 400,
    en: 'contentGenerationRequest.eventSlug: unknown event "{eventSlug}"',
  },
  billboard_not_in_event: {
    status: 400,
    en: 'The billboard "{deviceId}" is not part of the event "{eventSlug}".',
  },
  template_not_offered: {
    status: 400,
    en: 'The template "{templateId}" is not offered for the event "{eventSlug}".',
  },
  template_size_mismatch: {
    status: 400,
    en: 'The template "{templateId}" is made for {templateWidthPx}x{templateHeightPx} screens; this billboard shows {billboardWidthPx}x{billboardHeightPx}.',
  },
  upload_unknown: {
    status: 400,
    en: 'contentGenerationRequest.uploadId: unknown upload "{uploadId}"',
  },
  upload_kind_mismatch: {
    status: 400,
    en: 'This template needs a {needed}, and the upload is a {kind}.',
  },
  upload_processing: {
    status: 400,
    en: 'The {kind} is still being processed: try again in a moment.',
  },
  // the upload's own failure is its reason
  upload_failed: {
    status: 400,
    en: 'The {kind} could not be processed: {reason}. Upload another.',
  },
  upload_failed_unknown: {
    status: 400,
    en: 'The {kind} could not be processed: unknown error. Upload another.',
  },
  upload_required: {
    status: 400,
    en: 'This template needs a {contentType}: upload one first.',
  },
  content_type_unavailable: {
    status: 400,
    en: '{contentType} templates are not available on this server.',
  },
  video_needs_async: {
    status: 400,
    en: 'Video shouts are made in the background: send the request with async true.',
  },
  // one client's share of the shop's work and storage (CONTENT_JOBS_PER_CLIENT,
  // UPLOAD_BYTES_PER_CLIENT_HOUR): the shopper waits, the app says so
  content_jobs_busy: {
    status: 429,
    en: 'Your earlier shouts are still being made: wait for them, then try again in {seconds} seconds.',
  },
  upload_busy: {
    status: 429,
    en: 'This photo or video is being made into a shout already: try again in {seconds} seconds.',
  },
  upload_quota: {
    status: 429,
    en: 'You have uploaded too much in the last hour: try again in {seconds} seconds.',
  },
  // a request that was right but could not be made (spec §4: success false, the reason)
  render_failed: { status: 422, en: 'The billboard content could not be rendered.' },
  video_composite_failed: { status: 422, en: 'The billboard video could not be made.' },
  template_invalid: { status: 422, en: 'The template is not valid: {detail}' },
  template_needs_photo: { status: 422, en: 'This template needs a photo' },
  render_size_invalid: {
    status: 422,
    en: 'The billboard {side} must be a whole number of pixels from 1 to 8192, not {value}',
  },
  content_kind_unknown: { status: 422, en: 'This kind of content ({kind}) cannot be made here.' },
  upload_not_found: { status: 404, en: 'Upload not found' },
  job_not_found: { status: 404, en: 'Job not found' },
  content_failed: {
    status: 422,
    en: 'The content could not be made. Please try again or contact support.',
  },
  content_not_ready: { status: 409, en: 'The content is not ready yet.' },
  content_not_found: { status: 404, en: 'Content not found' },
  file_not_found: { status: 404, en: 'File not found' },
  template_not_found: { status: 404, en: 'Template not found' },
  template_no_example_clip: { status: 404, en: 'This template has no example clip.' },
  template_render_failed: { status: 422, en: 'This template cannot be rendered.' },

  // ---- the billboards' players (player/)
  player_token_missing: {
    status: 401,
    en: 'A player token is required (Authorization: Bearer or ?token=)',
  },
  player_token_invalid: { status: 401, en: 'This player token is unknown or was replaced' },
  to_before_from: { status: 400, en: 'toEpochMs must be after fromEpochMs' },
  window_too_long: { status: 400, en: 'The window must be at most 48 hours' },

  // ---- the server about itself (meta/)
  database_unreachable: { status: 503, en: 'The database does not answer' },
  migrations_pending: { status: 503, en: 'Migrations not applied: {migrations}' },
  storage_unwritable: { status: 503, en: 'Content storage does not take a write' },
  shutting_down: { status: 503, en: 'The server is shutting down' },
  metrics_off: { status: 404, en: 'Metrics are off' },
  metrics_token_required: { status: 401, en: 'The metrics token is required' },
  feature_flags_not_found: { status: 404, en: "No feature flags for the product '{product}'" },

  // ---- operators: sign-in, the console, the outbox (auth/, ops/, backoffice/, mail/)
  cross_origin: { status: 403, en: "This request must come from the shop's own pages" },
  sign_in_required: { status: 401, en: 'Sign in to continue' },
  role_forbidden: { status: 403, en: 'Your role does not allow this' },
  wrong_credentials: { status: 401, en: 'Wrong e-mail or password' },
  sign_in_limited: {
    status: 429,
    en: 'Too many sign-in attempts: try again in {seconds} seconds',
  },
  sign_in_busy: {
    status: 429,
    en: 'The server is checking too many passwords at this moment: try again in {seconds} seconds',
  },
  password_weak: { status: 400, en: 'The password must be at least {min} characters long' },
  password_too_long: { status: 400, en: 'The password must be at most {max} characters long' },
  link_invalid: {
    status: 400,
    en: 'This link is not valid any more: ask an administrator for a new one',
  },
  operator_exists: { status: 409, en: 'This operator exists already' },
  operator_not_found: { status: 404, en: 'No operator with this e-mail' },
  not_under_review: { status: 409, en: 'This order is not under review' },
  not_cancellable: { status: 409, en: 'This order cannot be cancelled' },
  reviewers_refuse_only: { status: 403, en: 'Reviewers can only refuse orders under review' },
  // a payment provider's or a mail server's refusal, in its own words
  refund_failed: { status: 502, en: 'The refund failed: {reason}' },
  refund_provider_mismatch: {
    status: 502,
    en: 'The order was paid with the {provider} provider; this server uses {current}',
  },
  mail_send_failed: { status: 502, en: 'The mail could not be sent: {reason}' },
  mail_not_found: { status: 404, en: 'No such mail' },

  // ---- the catalogue file (catalogue/format.ts, the console's upload and `npm run import`): each
  // problem names its JSON path as its field ('$.events[0].slug'); valibot's and the template
  // checker's own reasons are field_invalid's detail
  catalogue_not_json: { status: 400, en: '{field}: is not JSON ({detail})' },
  // the apply call's refusal of a file with problems: each problem of the file as its value
  catalogue_invalid: { status: 400, en: '{problem}' },
  catalogue_not_previewed: {
    status: 409,
    en: 'This is not the file that was previewed: preview it again first',
  },
  catalogue_types_empty: { status: 400, en: '{field}: must name photo, video or both' },
  catalogue_number_range: { status: 400, en: '{field}: must be {min} to {max}' },
  catalogue_number_above: { status: 400, en: '{field}: must be above {min}' },
  catalogue_ad_fields_apart: {
    status: 400,
    en: '{field}: impressionsPerPlay, adCpmCents and adCurrency go together (a billboard without them is not sold to advertisers)',
  },
  catalogue_ad_play_free: {
    status: 400,
    en: '{field}: impressionsPerPlay × adCpmCents / 1000 must be at least one cent a play',
  },
  catalogue_placeholder_unknown: {
    status: 400,
    en: '{field}: uses the unknown placeholder {placeholder}; allowed: {allowed}',
  },
  catalogue_slug_reserved: {
    status: 400,
    en: '{field}: is an address the shop uses for another page',
  },
  catalogue_plays_overflow: {
    status: 400,
    en: '{field}: secondsPerShout × playsPerSlot ({seconds} × {plays} s) must fit in the slot ({slotSeconds} s)',
  },
  catalogue_promo_discount: {
    status: 400,
    en: '{field}: must have exactly one of centsOffTotal or percentOffTotal',
  },
  // ICU's quoting: '' is one apostrophe (englishOf writes it so too)
  catalogue_duplicate: {
    status: 400,
    en: "{field}: duplicate {kind} ''{value}'' (first at {first})",
  },
  catalogue_device_unknown: { status: 400, en: "{field}: unknown device ''{deviceId}''" },
  catalogue_template_unknown: { status: 400, en: "{field}: unknown template ''{templateId}''" },
  catalogue_event_unknown: { status: 400, en: "{field}: unknown event ''{eventSlug}''" },

  // ---- advertisers: accounts, tokens, campaigns, proposals (advertisers/; spec §6, §7, §8)
  // spec §7: a call without `Authorization: Bearer …`
  authorization_missing: { status: 401, en: 'Missing authorization context' },
  // a refresh cookie, or a one-time link's token, missing, unknown, used or expired
  token_missing_or_bad: { status: 401, en: 'Missing or bad token' },
  // an access token of a session signed out since (or whose password changed)
  session_ended: { status: 401, en: 'This session has ended: please sign in again' },
  advertiser_credentials_invalid: { status: 401, en: 'Invalid username/password combination' },
  email_not_verified: {
    status: 403,
    en: 'Please confirm your e-mail address first: follow the link we sent you',
  },
  password_not_strong: { status: 400, en: 'Your password is not strong enough' },
  // kept for the log: a client is never told whether an e-mail has an account
  password_reset_user_not_found: { status: 404, en: 'User for password reset not found' },
  campaign_forbidden: { status: 403, en: 'You do not have access to this campaign' },
  campaign_not_found: { status: 404, en: 'Campaign not found' },
  schedule_locked: { status: 409, en: 'You may not modify this schedule' },
  campaign_content_locked: {
    status: 409,
    en: 'The ad of a booked campaign cannot be changed',
  },
  campaign_state_conflict: { status: 409, en: 'This cannot be done while the campaign is {state}' },
  campaign_start_past: { status: 422, en: 'Start time can not be prior to now' },
  campaign_start_too_soon: { status: 422, en: 'Start time can not be within 04:00:00 from now' },
  campaign_end_before_start: { status: 422, en: 'The end time must be after the start time' },
  campaign_flight_too_long: { status: 422, en: 'A campaign runs at most {days} days' },
  campaign_budget_below_spent: {
    status: 422,
    en: 'amount spent to date + amount committed ({spentCents} + {committedCents} cents) is more than the budget of {budgetCents} cents',
  },
  billboard_not_for_ads: { status: 422, en: 'The billboard {deviceId} is not sold to advertisers' },
  billboard_currency_mismatch: {
    status: 422,
    en: "The billboard {deviceId} is sold in {currency}, not in the campaign's currency",
  },
  campaign_no_content: { status: 422, en: 'Upload the ad before asking for a proposal' },
  campaign_content_processing: {
    status: 422,
    en: 'The ad is still being processed: try again in a moment',
  },
  campaign_content_failed: { status: 422, en: 'The ad could not be processed: upload another' },
  campaign_nothing_to_sell: {
    status: 422,
    en: 'The budget buys no play on these billboards at these times',
  },
  proposal_not_found: { status: 404, en: 'No proposal found for the provided key' },
  proposal_expired: { status: 410, en: 'This proposal has expired: ask for a new one' },
  proposal_void: {
    status: 409,
    en: 'This proposal was replaced, or its campaign changed: ask for a new one',
  },
  proposal_plays_taken: {
    status: 409,
    en: 'Some of the proposed plays were sold meanwhile: ask for a new proposal',
  },
  // the app: another account signed in in another tab (spec §8)
  logged_in_user_changed: {
    status: 409,
    en: 'The logged-in user changed and this action cannot be performed. Please login as the correct user.',
  },
  campaign_not_under_review: { status: 409, en: 'This campaign is not awaiting review' },
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

  // ---- a text that came without its code: a failure stored as English before problems were
  // stored as codes (migration 0009), an error body of a server that sends no codes
  plain_text: { status: 500, en: '{text}' },
} as const satisfies Record<DomainProblemCode, Entry> & Record<string, Entry>

export type ProblemCode = keyof typeof PROBLEMS

/** The names of the placeholders of a text: `{name}`, or `{name, number}` (written with grouping). */
type Placeholders<S extends string> = S extends `${string}{${infer Name}}${infer Rest}`
  ? (Name extends `${infer Bare}, ${string}` ? Bare : Name) | Placeholders<Rest>
  : never

type WordKeys<C extends ProblemCode, P extends string> = C extends keyof typeof WORD_PARAMS
  ? P extends keyof (typeof WORD_PARAMS)[C]
    ? (typeof WORD_PARAMS)[C][P] extends WordTable
      ? keyof (typeof WORDS)[(typeof WORD_PARAMS)[C][P]]
      : ProblemParam
    : ProblemParam
  : ProblemParam

/** The params a code's text needs: one per placeholder (a key of its table for a word). */
export type ParamsOf<C extends ProblemCode> = {
  readonly [P in Placeholders<(typeof PROBLEMS)[C]['en']>]: WordKeys<C, P>
}

/** A problem of the catalogue: its code and the values of its text. */
export type Problem<C extends ProblemCode = ProblemCode> = {
  readonly code: C
  readonly params?: ProblemParams
}

type ParamsArg<C extends ProblemCode> = [Placeholders<(typeof PROBLEMS)[C]['en']>] extends [never]
  ? []
  : [params: ParamsOf<C>]

/** A problem of the catalogue, with the params its text needs (a type error when one is missing). */
export function problem<C extends ProblemCode>(code: C, ...params: ParamsArg<C>): Problem<C> {
  const [values] = params as [ProblemParams?]
  return values ? { code, params: values } : { code }
}

export const isProblemCode = (code: string): code is ProblemCode => Object.hasOwn(PROBLEMS, code)

/** The status of a code, or 500 for a code the catalogue does not know. */
export const statusOf = (code: string): number =>
  isProblemCode(code) ? PROBLEMS[code].status : 500

const wordOf = (code: ProblemCode, param: string, value: ProblemParam): string | null => {
  const table = wordTableOf(code, param)
  if (!table || typeof value !== 'string' || !Object.hasOwn(WORDS, table)) return null
  const words: Readonly<Record<string, string>> = WORDS[table as WordTable]
  return Object.hasOwn(words, value) ? (words[value] ?? null) : null
}

/**
 * A problem's English text: its code's text with its values written in (a word for a key, the
 * English of a problem given as a value). A code the catalogue does not know is written as it is.
 */
export function englishOf(problem: ProblemData): string {
  if (!isProblemCode(problem.code)) return problem.code
  const code = problem.code
  const params = problem.params ?? {}
  return PROBLEMS[code].en.replace(/\{(\w+)(, number)?\}|''/g, (whole, name, number) => {
    if (whole === "''") return "'"
    const value = params[name as string]
    if (value === undefined) return whole
    if (typeof value === 'object') return englishOf(value)
    if (number && typeof value === 'number') return value.toLocaleString('en-US')
    return wordOf(code, name, value) ?? String(value)
  })
}

const DECLINE_CODES: ReadonlySet<string> = new Set<ProblemCode>([
  'card_declined',
  'insufficient_funds',
  'expired_card',
  'incorrect_cvc',
  'incorrect_number',
  'processing_error',
  'authentication_required',
])

/** Whether a problem is a card's decline (an order that failed on its payment). */
export const isDeclineCode = (code: string): boolean => DECLINE_CODES.has(code)

/** Stripe's decline code as sent, or card_declined for one the catalogue does not name. */
export const declineProblemCode = (declineCode: string): ProblemCode =>
  DECLINE_CODES.has(declineCode) ? (declineCode as ProblemCode) : 'card_declined'
