// Advertisers' accounts and sessions (api-v1 "Advertisers", docs/decisions/023): the lifetimes of
// their tokens and links, and the bar a password must clear. The server enforces them; the app shows
// them.

/** The access token (a signed JWT, kept in the app's memory only) lives 15 minutes. */
export const ACCESS_TOKEN_TTL_MS = 15 * 60_000
/** A refresh token (an HttpOnly cookie) lives 30 days from its issue; each use rotates it. */
export const REFRESH_TOKEN_TTL_MS = 30 * 86_400_000
/** The e-mail verification link works for 24 hours, once. */
export const VERIFY_LINK_TTL_MS = 24 * 3_600_000
/** The password reset link works for one hour, once. */
export const RESET_LINK_TTL_MS = 3_600_000
/** An account never verified is deleted a week after its sign-up. */
export const UNVERIFIED_ACCOUNT_TTL_MS = 7 * 86_400_000
/**
 * The least zxcvbn score (0-4) a password needs: 3, "safely unguessable: moderate protection from
 * offline slow-hash scenario" (the hashes are argon2id).
 */
export const PASSWORD_MIN_SCORE = 3
/** A bound, so hashing stays cheap (the estimator's time grows with the length too). */
export const ADVERTISER_PASSWORD_MAX_LENGTH = 200

/** The app renews the access token this long before it expires, so a call never leaves with one about to expire. */
export const ACCESS_TOKEN_RENEW_BEFORE_MS = 30_000
