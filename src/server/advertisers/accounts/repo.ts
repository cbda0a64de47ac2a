import type { Locale } from '../../../domain/locale.ts'
import type { MemberRole } from '../../../domain/team.ts'
import type { Queryable } from '../../platform/db/client.ts'
import { epochMs, iso, json, sql } from '../../platform/db/sql.ts'
import { ACCOUNTS, LINKS, REFRESH_TOKENS, REQUESTS, SESSIONS } from '../columns.ts'

// The SQL of advertisers' accounts and their secrets (migration 0015): advertiser_accounts,
// advertiser_links (one-time links, hashed), advertiser_sessions and advertiser_refresh_tokens
// (families of rotated refresh tokens, hashed), advertiser_signing_keys. Times the rules compare
// (expiry) are written from the server's clock, so tests can move it.

const ACCOUNT_FIELDS = [
  'accountId',
  'email',
  'name',
  'company',
  'locale',
  'passwordHash',
  'role',
] as const

export type AccountRow = {
  accountId: string
  email: string
  name: string
  company: string
  locale: Locale
  passwordHash: string
  verified: boolean
  /** The team's account whose campaigns this login works on (its own id when it founded it). */
  teamId: string
  role: MemberRole
}

const ACCOUNT_COLUMNS = sql`${ACCOUNTS.select({ fields: ACCOUNT_FIELDS })},
  verified_at is not null as verified, coalesce(team_id, account_id) as "teamId"`

export async function accountByEmail(db: Queryable, email: string): Promise<AccountRow | null> {
  const [row] = await db.query(sql<AccountRow>`
    select ${ACCOUNT_COLUMNS} from advertiser_accounts where lower(email) = lower(${email})`)
  return row ?? null
}

export async function accountById(db: Queryable, accountId: string): Promise<AccountRow | null> {
  const [row] = await db.query(sql<AccountRow>`
    select ${ACCOUNT_COLUMNS} from advertiser_accounts where account_id = ${accountId}`)
  return row ?? null
}

/** A new account, not verified; null when the e-mail is taken (two sign-ups at once: one wins). */
export async function insertAccount(
  db: Queryable,
  account: Omit<AccountRow, 'verified' | 'teamId' | 'role'>,
  nowMs: number,
): Promise<AccountRow | null> {
  const [row] = await db.query(sql<AccountRow>`
    insert into advertiser_accounts (account_id, email, name, company, locale, password_hash,
      created_at)
    values (${account.accountId}, ${account.email}, ${account.name}, ${account.company},
      ${account.locale}, ${account.passwordHash}, ${iso(nowMs)}::timestamptz)
    on conflict do nothing
    returning ${ACCOUNT_COLUMNS}`)
  return row ?? null
}

export type LinkPurpose = 'verify' | 'reset'

/** A new one-time link; the account's open links of the same purpose stop working. */
export async function replaceLink(
  db: Queryable,
  link: {
    tokenHash: string
    accountId: string
    purpose: LinkPurpose
    passwordHash: string | null
    expiresAtMs: number
  },
  nowMs: number,
): Promise<void> {
  await db.query(sql`
    with revoked as (
      update advertiser_links set revoked_at = ${iso(nowMs)}::timestamptz
      where account_id = ${link.accountId} and purpose = ${link.purpose}
        and used_at is null and revoked_at is null
    )
    insert into advertiser_links (token_hash, account_id, purpose, password_hash, created_at,
      expires_at)
    values (${link.tokenHash}, ${link.accountId}, ${link.purpose}, ${link.passwordHash},
      ${iso(nowMs)}::timestamptz, ${iso(link.expiresAtMs)}::timestamptz)`)
}

/** The account a live link of this purpose belongs to, without using the link. */
export async function linkAccount(
  db: Queryable,
  tokenHash: string,
  purpose: LinkPurpose,
  nowMs: number,
): Promise<AccountRow | null> {
  const [row] = await db.query(sql<AccountRow>`
    select ${ACCOUNT_COLUMNS} from advertiser_accounts
    where account_id = (select account_id from advertiser_links
      where token_hash = ${tokenHash} and purpose = ${purpose} and used_at is null
        and revoked_at is null and expires_at > ${iso(nowMs)}::timestamptz)`)
  return row ?? null
}

/**
 * Uses a one-time link: marks it used and answers its account and password hash, in one statement,
 * only when it is of this purpose, unused, not revoked and not expired (two uses at once: one wins).
 */
export async function useLink(
  db: Queryable,
  tokenHash: string,
  purpose: LinkPurpose,
  nowMs: number,
): Promise<{ accountId: string; passwordHash: string | null } | null> {
  const [row] = await db.query(sql<{ accountId: string; passwordHash: string | null }>`
    update advertiser_links set used_at = ${iso(nowMs)}::timestamptz
    where token_hash = ${tokenHash} and purpose = ${purpose} and used_at is null
      and revoked_at is null and expires_at > ${iso(nowMs)}::timestamptz
    returning ${LINKS.select({ fields: ['accountId', 'passwordHash'] })}`)
  return row ?? null
}

/**
 * A verified e-mail; its open verification links revoked. The password is left as it is: the one
 * the account was made with, or set since by a reset link.
 */
export async function markVerified(db: Queryable, accountId: string, nowMs: number): Promise<void> {
  await db.query(sql`
    update advertiser_accounts set verified_at = coalesce(verified_at, ${iso(nowMs)}::timestamptz)
    where account_id = ${accountId}`)
  await db.query(sql`
    update advertiser_links set revoked_at = ${iso(nowMs)}::timestamptz
    where account_id = ${accountId} and purpose = 'verify' and used_at is null
      and revoked_at is null`)
}

/**
 * An admin verifies the account of this e-mail by hand (the console): its open verification links
 * revoked as a link's use would. `changed` is false when it was verified already. Null: no account.
 */
export async function verifyByHand(
  db: Queryable,
  email: string,
  nowMs: number,
): Promise<{ account: AccountRow; changed: boolean; verifiedAtEpochMs: number } | null> {
  const [found] = await db.query(sql<AccountRow>`
    select ${ACCOUNT_COLUMNS} from advertiser_accounts where lower(email) = lower(${email.trim()})
    for update`)
  if (!found) return null
  if (!found.verified) await markVerified(db, found.accountId, nowMs)
  const [at] = await db.query(sql<{ ms: number }>`
    select ${epochMs(sql`verified_at`)} as ms from advertiser_accounts
    where account_id = ${found.accountId}`)
  return {
    account: { ...found, verified: true },
    changed: !found.verified,
    verifiedAtEpochMs: Math.round(Number(at?.ms ?? nowMs)),
  }
}

/**
 * A new password: set, the e-mail counts as verified (the link proved the mailbox), every session
 * and open reset link of the account revoked.
 */
export async function changePassword(
  db: Queryable,
  accountId: string,
  passwordHash: string,
  nowMs: number,
): Promise<void> {
  const at = sql`${iso(nowMs)}::timestamptz`
  await db.query(sql`
    update advertiser_accounts set password_hash = ${passwordHash}, password_changed_at = ${at},
      verified_at = coalesce(verified_at, ${at})
    where account_id = ${accountId}`)
  await db.query(sql`
    update advertiser_links set revoked_at = ${at}
    where account_id = ${accountId} and used_at is null and revoked_at is null`)
  await db.query(sql`
    update advertiser_sessions set revoked_at = ${at}, revoked_reason = 'password_changed'
    where account_id = ${accountId} and revoked_at is null`)
}

// ---------- sessions: families of refresh tokens ----------

export async function insertSession(
  db: Queryable,
  session: { familyId: string; accountId: string; tokenHash: string; expiresAtMs: number },
  nowMs: number,
): Promise<void> {
  await db.query(sql`
    insert into advertiser_sessions (family_id, account_id, created_at, last_used_at, expires_at)
    values (${session.familyId}, ${session.accountId}, ${iso(nowMs)}::timestamptz,
      ${iso(nowMs)}::timestamptz, ${iso(session.expiresAtMs)}::timestamptz)`)
  await insertRefreshToken(db, session, nowMs)
}

async function insertRefreshToken(
  db: Queryable,
  token: { familyId: string; tokenHash: string; expiresAtMs: number },
  nowMs: number,
): Promise<void> {
  await db.query(sql`
    insert into advertiser_refresh_tokens (token_hash, family_id, created_at, expires_at)
    values (${token.tokenHash}, ${token.familyId}, ${iso(nowMs)}::timestamptz,
      ${iso(token.expiresAtMs)}::timestamptz)`)
}

export type RefreshTokenRow = {
  familyId: string
  accountId: string
  used: boolean
  expired: boolean
  familyRevoked: boolean
}

/** A refresh token and its family, locked until the transaction ends (a rotation is one step). */
export async function lockRefreshToken(
  db: Queryable,
  tokenHash: string,
  nowMs: number,
): Promise<RefreshTokenRow | null> {
  const [row] = await db.query(sql<RefreshTokenRow>`
    select ${REFRESH_TOKENS.select({ from: 't', fields: ['familyId'] })},
      ${SESSIONS.select({ from: 's', fields: ['accountId'] })}, t.used_at is not null as used,
      t.expires_at <= ${iso(nowMs)}::timestamptz as expired,
      s.revoked_at is not null as "familyRevoked"
    from advertiser_refresh_tokens t join advertiser_sessions s on s.family_id = t.family_id
    where t.token_hash = ${tokenHash}
    for update of t, s`)
  return row ?? null
}

/** The token is used up; its family gets the next one. */
export async function rotateRefreshToken(
  db: Queryable,
  rotation: { usedHash: string; familyId: string; tokenHash: string; expiresAtMs: number },
  nowMs: number,
): Promise<void> {
  await db.query(sql`
    update advertiser_refresh_tokens set used_at = ${iso(nowMs)}::timestamptz
    where token_hash = ${rotation.usedHash}`)
  await db.query(sql`
    update advertiser_sessions set last_used_at = ${iso(nowMs)}::timestamptz,
      expires_at = ${iso(rotation.expiresAtMs)}::timestamptz
    where family_id = ${rotation.familyId}`)
  await insertRefreshToken(db, rotation, nowMs)
}

export async function revokeFamily(
  db: Queryable,
  familyId: string,
  reason: 'sign_out' | 'token_reused',
  nowMs: number,
): Promise<void> {
  await db.query(sql`
    update advertiser_sessions set revoked_at = ${iso(nowMs)}::timestamptz,
      revoked_reason = ${reason}
    where family_id = ${familyId} and revoked_at is null`)
}

/** The account of a family not revoked (an access token's session), or null. */
export async function liveFamilyAccount(
  db: Queryable,
  familyId: string,
  accountId: string,
): Promise<AccountRow | null> {
  const [row] = await db.query(sql<AccountRow>`
    select ${ACCOUNT_COLUMNS} from advertiser_accounts a
    where a.account_id = ${accountId} and exists (select 1 from advertiser_sessions s
      where s.family_id = ${familyId} and s.account_id = a.account_id and s.revoked_at is null)`)
  return row ?? null
}

// ---------- signing keys (no ADVERTISER_TOKEN_KEYS) ----------

/** The key under this id: made with `secret` by whichever instance comes first, then kept. */
export async function ensureGeneratedKey(
  db: Queryable,
  kid: string,
  secret: string,
): Promise<string> {
  await db.query(sql`
    insert into advertiser_signing_keys (kid, secret) values (${kid}, ${secret})
    on conflict (kid) do nothing`)
  const [row] = await db.query(sql<{ secret: string }>`
    select secret from advertiser_signing_keys where kid = ${kid}`)
  if (!row) throw new Error('the signing key was not stored')
  return row.secret
}

// ---------- lifetimes ----------

/**
 * Deletes what has no use any more: links and refresh tokens expired a day ago, families whose
 * last token expired, sign-up and reset requests a day old, accounts never verified past their
 * lifetime. Answers how many rows went.
 */
export async function sweepExpired(
  db: Queryable,
  nowMs: number,
  unverifiedTtlMs: number,
): Promise<number> {
  const dayAgo = sql`${iso(nowMs - 86_400_000)}::timestamptz`
  const links = await db.query(sql`
    delete from advertiser_links where expires_at < ${dayAgo} returning 1 as x`)
  const tokens = await db.query(sql`
    delete from advertiser_refresh_tokens where expires_at < ${dayAgo} returning 1 as x`)
  const families = await db.query(sql`
    delete from advertiser_sessions where expires_at < ${dayAgo} returning 1 as x`)
  // a request its job failed on for a day will not succeed: its e-mail and hash go
  const requests = await db.query(sql`
    delete from advertiser_requests where created_at < ${dayAgo} returning 1 as x`)
  const accounts = await db.query(sql`
    delete from advertiser_accounts
    where verified_at is null and created_at < ${iso(nowMs - unverifiedTtlMs)}::timestamptz
      and not exists (select 1 from campaigns c where c.account_id = advertiser_accounts.account_id)
    returning 1 as x`)
  return links.length + tokens.length + families.length + requests.length + accounts.length
}

// ---------- requests ----------

// The SQL of advertiser_requests (migrations 0037, 0041): sign-ups, password resets and requests for
// the verification link again, answered already,
// waiting for the `advertiser-requests` job (requests.ts). A row is claimed under a lease,
// so one an instance dropped (a crash) is done by another once the lease has passed; it is deleted
// in the transaction of the work it asked for.

export type SignUpDetails = {
  name: string
  company: string
  locale: Locale
  /** argon2id, hashed before the answer whatever the e-mail (the password itself is never kept) */
  passwordHash: string
}

export type AccountRequest =
  | { requestId: string; kind: 'sign_up'; email: string; details: SignUpDetails }
  | { requestId: string; kind: 'reset'; email: string; details: Record<string, never> }
  /** a new verification link for an account not verified yet (migration 0041) */
  | { requestId: string; kind: 'resend'; email: string; details: Record<string, never> }

export async function insertRequest(
  db: Queryable,
  request: AccountRequest,
  nowMs: number,
): Promise<void> {
  await db.query(sql`
    insert into advertiser_requests (request_id, kind, email, details, created_at)
    values (${request.requestId}, ${request.kind}, ${request.email}, ${json(request.details)}::jsonb,
      ${iso(nowMs)}::timestamptz)`)
}

/** The oldest requests no instance holds, claimed until `nowMs + leaseMs`. */
export function claimRequests(
  db: Queryable,
  nowMs: number,
  leaseMs: number,
  limit: number,
): Promise<AccountRequest[]> {
  return db.query(sql<AccountRequest>`
    update advertiser_requests r set claimed_until = ${iso(nowMs + leaseMs)}::timestamptz
    from (select request_id from advertiser_requests
      where claimed_until is null or claimed_until <= ${iso(nowMs)}::timestamptz
      order by created_at limit ${limit} for update skip locked) due
    where r.request_id = due.request_id
    returning ${REQUESTS.select({ from: 'r' })}`)
}

/**
 * Deletes the request; false when it was gone already (another instance, whose lease began when
 * this one's ran out, did its work: this one must not do it again).
 */
export async function deleteRequest(db: Queryable, requestId: string): Promise<boolean> {
  const rows = await db.query(sql`
    delete from advertiser_requests where request_id = ${requestId} returning 1 as x`)
  return rows.length > 0
}
