// Problems of any request: its address, body and values, the rate limits (src/server/app.ts,
// platform/http/json.ts, platform/rate-limit.ts, src/contract/common.ts), and a text that came without
// its code.
// A part of the one catalogue (./problems.ts says how it is read and how to add a code).

export const REQUEST_PROBLEMS = {
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
  play_log_invalid: {
    status: 400,
    en: 'The request body is not a play log this server reads (an A-SMIL report of contentPlayed)',
  },
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
  // a value of a union whose discriminator names none of its options (a heartbeat's `showing.kind`)
  field_not_one_of: { status: 400, en: '{field}: must be one of {expected}' },
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

  // ---- a text that came without its code: a failure stored as English before problems were
  // stored as codes (migration 0009), an error body of a server that sends no codes
  plain_text: { status: 500, en: '{text}' },
} as const
