// Problems of the billboards' players, the server about itself, operators and the console, the
// catalogue file (player/, meta/, auth/, ops/, mail/, catalogue/format.ts).
// A part of the one catalogue (./problems.ts says how it is read and how to add a code).

export const CONSOLE_PROBLEMS = {
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
  database_unavailable: {
    status: 503,
    en: 'The database cannot take this request at this moment (out of room or connections)',
  },
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
} as const
