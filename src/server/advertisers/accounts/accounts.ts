import { randomUUID } from 'node:crypto'
import type { AdvertiserSession, SignUpRequest } from '../../../contract/advertisers.ts'
import {
  PASSWORD_MIN_SCORE,
  REFRESH_TOKEN_TTL_MS,
  UNVERIFIED_ACCOUNT_TTL_MS,
} from '../../../domain/advertiser-account.ts'
import { SIGN_IN_FAILURE_LIMITS, SIGN_IN_WINDOW_MS } from '../../../domain/ops.ts'
import { createSignInLimits, type PasswordWork } from '../../auth/passwords.ts'
import type { Database, Queryable } from '../../platform/db/client.ts'
import type { Logger } from '../../platform/log.ts'
import type { LimitRule, RateLimiter } from '../../platform/rate-limit.ts'
import { err, ok, type Result } from '../../platform/result.ts'
import { newSecret, secretHash } from '../../platform/secret.ts'
import type { AdvertiserMails } from '../mails/accounts.ts'
import { recordChange } from '../team/repo.ts'
import { passwordScore, passwordStrongEnough } from './password.ts'
import {
  type AccountRow,
  accountByEmail,
  changePassword,
  insertRequest,
  insertSession,
  linkAccount,
  liveFamilyAccount,
  lockRefreshToken,
  markVerified,
  revokeFamily,
  rotateRefreshToken,
  sweepExpired,
  useLink,
  verifyByHand,
} from './repo.ts'
import { createAccountRequests } from './requests.ts'
import type { AccessTokens, TokenProblem } from './tokens.ts'

// Advertisers' accounts and sessions (api-v1 "Advertisers", docs/decisions/023). No answer says
// whether an e-mail has an account: sign-up and reset answer alike after the same work (the request
// stored, a sign-up's password hashed), and what depends on the account is done after the answer
// (requests.ts). Sign-in is limited as the console's is
// (auth/passwords.ts: per account at an address, per address, per account anywhere), sign-up and
// reset per e-mail and per address, on the shared limiter. Passwords are argon2id under the
// process's one bound on password work (the operators'), judged by zxcvbn. A session is a family of
// refresh tokens, rotated on use; a rotated token used again revokes the family.

export type AccountProblem =
  | { code: 'password_not_strong' }
  | { code: 'token_missing_or_bad' }
  | { code: 'advertiser_credentials_invalid' }
  | { code: 'email_not_verified' }
  | { code: 'sign_in_limited'; params: { seconds: number } }
  | { code: 'too_many_requests'; params: { seconds: number } }
  /** the server checks as many passwords as it may at once: try again in a moment */
  | { code: 'sign_in_busy'; params: { seconds: number } }

/** The problems of AccountProblem with these codes (what one call can answer). */
type AccountProblemOf<C extends AccountProblem['code']> = Extract<AccountProblem, { code: C }>

export type AuthProblem = { code: TokenProblem | 'authorization_missing' | 'session_ended' }

/** A signed-in session: what the client reads, and the refresh token for its cookie. */
export type SignedIn = { session: AdvertiserSession; refreshToken: string }

// Each attempt counts (not only failures): every one sends a mail. Per address, the routes count
// them too (the shared write limit, WRITES_PER_MINUTE).
const perEmail = (bucket: string): LimitRule => ({
  bucket,
  limit: SIGN_IN_FAILURE_LIMITS.accountAtAddress,
  windowMs: SIGN_IN_WINDOW_MS,
})
const SIGN_UP = perEmail('advertiser-sign-up-account')
const RESET = perEmail('advertiser-reset-account')
const RESEND = perEmail('advertiser-resend-account')
const BUSY = { code: 'sign_in_busy', params: { seconds: 1 } } as const

export type AccountService = ReturnType<typeof createAccountService>

export function createAccountService(deps: {
  database: Database
  limiter: RateLimiter
  /** The process's one bound on argon2 work (auth/passwords.ts, the operators' too). */
  passwords: PasswordWork
  tokens: AccessTokens
  mails: AdvertiserMails
  log: Logger
  now: () => number
  /** Writes an operator's action to the audit log, in the transaction that makes the change. */
  audit: (
    entry: {
      operator: { id: string; email: string }
      action: string
      detail: Record<string, unknown>
    },
    tx: Queryable,
  ) => Promise<void>
}) {
  const { database: db, limiter, passwords, tokens, mails, log, now } = deps
  const signInLimits = createSignInLimits(limiter, 'advertiser')
  const requests = createAccountRequests({ database: db, mails, log, now })

  /** Counts an attempt for the e-mail (atomic: parallel tries cannot slip past). */
  async function take(
    rule: LimitRule,
    email: string,
  ): Promise<{ allowed: true } | { allowed: false; seconds: number }> {
    const taken = await limiter.take(rule, email.trim().toLowerCase())
    return taken.allowed ? { allowed: true } : { allowed: false, seconds: taken.retryAfterS }
  }

  async function newSession(account: AccountRow): Promise<SignedIn> {
    const refreshToken = newSecret()
    const familyId = randomUUID()
    const nowMs = now()
    await insertSession(
      db,
      {
        familyId,
        accountId: account.accountId,
        tokenHash: secretHash(refreshToken),
        expiresAtMs: nowMs + REFRESH_TOKEN_TTL_MS,
      },
      nowMs,
    )
    return { session: await sessionOf(account, familyId), refreshToken }
  }

  async function sessionOf(account: AccountRow, familyId: string): Promise<AdvertiserSession> {
    const signed = await tokens.sign({ accountId: account.accountId, familyId }, now())
    return {
      accessToken: signed.token,
      expiresAtEpochMs: signed.expiresAtEpochMs,
      account: {
        accountId: account.accountId,
        email: account.email,
        name: account.name,
        company: account.company,
        locale: account.locale,
      },
    }
  }

  /**
   * POST /advertisers/accounts: the password judged and hashed, the request stored; the rest (an
   * account and its verification link, or a mail to the owner of the e-mail) is done after the
   * answer (requests.ts). The same answer, after the same work, whatever the e-mail.
   */
  async function signUp(
    request: SignUpRequest,
  ): Promise<
    Result<void, AccountProblemOf<'too_many_requests' | 'password_not_strong' | 'sign_in_busy'>>
  > {
    const limited = await take(SIGN_UP, request.email)
    if (!limited.allowed)
      return err({ code: 'too_many_requests', params: { seconds: limited.seconds } })
    const words = [request.email, request.name, request.company]
    if (!(await passwordStrongEnough(request.password, words))) {
      return err({ code: 'password_not_strong' })
    }
    const hashed = await passwords.hash(request.password)
    if (!hashed.ok) return err(BUSY)
    const { name, company, locale } = request
    await insertRequest(
      db,
      {
        requestId: randomUUID(),
        kind: 'sign_up',
        email: request.email,
        details: { name, company, locale, passwordHash: hashed.value },
      },
      now(),
    )
    return ok(undefined)
  }

  /**
   * POST /advertisers/accounts/verify: the link, once, within 24 h. It confirms the e-mail only:
   * the password stays the one the account was made with (a link never carries another).
   */
  async function verifyEmail(
    token: string,
  ): Promise<Result<{ accountId: string }, AccountProblemOf<'token_missing_or_bad'>>> {
    if (!token) return err({ code: 'token_missing_or_bad' })
    return db.transaction(async (tx) => {
      const nowMs = now()
      const used = await useLink(tx, secretHash(token), 'verify', nowMs)
      if (!used) return err({ code: 'token_missing_or_bad' as const })
      await markVerified(tx, used.accountId, nowMs)
      return ok({ accountId: used.accountId })
    })
  }

  /**
   * POST /advertisers/session. Every attempt counts before the password is checked; one that
   * succeeds gives its hits back, so only failures add up (10 in 15 minutes, then 429). An account
   * not verified yet is told so only with its right password.
   */
  async function signIn(
    email: string,
    password: string,
    address: string,
  ): Promise<
    Result<
      SignedIn,
      AccountProblemOf<
        'sign_in_limited' | 'sign_in_busy' | 'advertiser_credentials_invalid' | 'email_not_verified'
      >
    >
  > {
    const taken = await signInLimits.take(email, address)
    if (!taken.allowed) return err({ code: 'sign_in_limited', params: { seconds: taken.seconds } })
    const account = await accountByEmail(db, email.trim())
    const checked = await passwords.check(account?.passwordHash ?? null, password)
    if (!checked.ok) {
      await taken.giveBack()
      return err(BUSY)
    }
    if (!account || !checked.value) return err({ code: 'advertiser_credentials_invalid' })
    await taken.giveBack()
    if (!account.verified) return err({ code: 'email_not_verified' })
    return ok(await newSession(account))
  }

  /**
   * POST /advertisers/session/refresh: the cookie's token is used up and the family gets the next
   * one. A token used already (stolen, or replayed) revokes its family: every token of that
   * browser's session stops working.
   */
  async function refresh(
    refreshToken: string | null,
  ): Promise<Result<SignedIn, AccountProblemOf<'token_missing_or_bad'>>> {
    if (!refreshToken) return err({ code: 'token_missing_or_bad' })
    const next = newSecret()
    const outcome = await db.transaction(async (tx) => {
      const nowMs = now()
      const found = await lockRefreshToken(tx, secretHash(refreshToken), nowMs)
      if (!found || found.familyRevoked || found.expired) return null
      if (found.used) {
        await revokeFamily(tx, found.familyId, 'token_reused', nowMs)
        log.warn('a rotated refresh token was used again: its session is revoked', {
          accountId: found.accountId,
        })
        return null
      }
      await rotateRefreshToken(
        tx,
        {
          usedHash: secretHash(refreshToken),
          familyId: found.familyId,
          tokenHash: secretHash(next),
          expiresAtMs: nowMs + REFRESH_TOKEN_TTL_MS,
        },
        nowMs,
      )
      return found
    })
    if (!outcome) return err({ code: 'token_missing_or_bad' })
    const account = await liveFamilyAccount(db, outcome.familyId, outcome.accountId)
    if (!account) return err({ code: 'token_missing_or_bad' })
    return ok({ session: await sessionOf(account, outcome.familyId), refreshToken: next })
  }

  /** DELETE /advertisers/session: the cookie's family is revoked (nothing to do without one). */
  async function signOut(refreshToken: string | null): Promise<void> {
    if (!refreshToken) return
    await db.transaction(async (tx) => {
      const nowMs = now()
      const found = await lockRefreshToken(tx, secretHash(refreshToken), nowMs)
      if (found) await revokeFamily(tx, found.familyId, 'sign_out', nowMs)
    })
  }

  /**
   * POST /advertisers/password-reset: the request stored, and answered 202 whatever the e-mail; the
   * link (1 h) is made and mailed after the answer when the e-mail has an account
   * (requests.ts).
   */
  async function requestReset(
    email: string,
  ): Promise<Result<void, AccountProblemOf<'too_many_requests'>>> {
    const limited = await take(RESET, email)
    if (!limited.allowed)
      return err({ code: 'too_many_requests', params: { seconds: limited.seconds } })
    await insertRequest(db, { requestId: randomUUID(), kind: 'reset', email, details: {} }, now())
    return ok(undefined)
  }

  /**
   * POST /advertisers/accounts/verify/resend: stored and answered 202 whatever the e-mail, as a
   * sign-up is; the new link is made and mailed after the answer when the e-mail has an account not
   * verified yet (requests.ts). Limited per e-mail on the shared limiter, so every instance
   * counts the same attempts.
   */
  async function resendVerification(
    email: string,
  ): Promise<Result<void, AccountProblemOf<'too_many_requests'>>> {
    const limited = await take(RESEND, email)
    if (!limited.allowed)
      return err({ code: 'too_many_requests', params: { seconds: limited.seconds } })
    await insertRequest(db, { requestId: randomUUID(), kind: 'resend', email, details: {} }, now())
    return ok(undefined)
  }

  /** POST /advertisers/password-strength: zxcvbn's score, knowing the words typed with it. */
  async function passwordStrength(input: {
    password: string
    email: string
    name: string
    company: string
  }): Promise<{ score: number; strongEnough: boolean }> {
    const score = await passwordScore(input.password, [input.email, input.name, input.company])
    return { score, strongEnough: score >= PASSWORD_MIN_SCORE }
  }

  /**
   * POST /ops/advertisers/verify (admins): the account of the e-mail verified by hand, audited in
   * the same transaction; one verified already changes nothing and is not audited again.
   */
  async function verifyByOperator(
    email: string,
    operator: { id: string; email: string },
  ): Promise<
    Result<
      {
        accountId: string
        email: string
        company: string
        changed: boolean
        verifiedAtEpochMs: number
      },
      { code: 'advertiser_not_found' }
    >
  > {
    return db.transaction(async (tx) => {
      const done = await verifyByHand(tx, email, now())
      if (!done) return err({ code: 'advertiser_not_found' as const })
      const { account, changed, verifiedAtEpochMs } = done
      if (changed) {
        await deps.audit(
          { operator, action: 'advertiser_verify', detail: { accountId: account.accountId } },
          tx,
        )
      }
      return ok({
        accountId: account.accountId,
        email: account.email,
        company: account.company,
        changed,
        verifiedAtEpochMs,
      })
    })
  }

  /**
   * POST /advertisers/password-reset/confirm: the link, once, within the hour; a password strong
   * enough; then every session of the account ends (its refresh tokens and access tokens).
   */
  async function confirmReset(
    token: string,
    password: string,
  ): Promise<
    Result<void, AccountProblemOf<'token_missing_or_bad' | 'password_not_strong' | 'sign_in_busy'>>
  > {
    const account = token ? await linkAccount(db, secretHash(token), 'reset', now()) : null
    if (!account) return err({ code: 'token_missing_or_bad' })
    if (!(await passwordStrongEnough(password, [account.email, account.name, account.company]))) {
      return err({ code: 'password_not_strong' })
    }
    const hashed = await passwords.hash(password)
    if (!hashed.ok) return err(BUSY)
    const passwordHash = hashed.value
    return db.transaction(async (tx) => {
      const nowMs = now()
      const used = await useLink(tx, secretHash(token), 'reset', nowMs)
      if (!used) return err({ code: 'token_missing_or_bad' as const })
      await changePassword(tx, used.accountId, passwordHash, nowMs)
      return ok(undefined)
    })
  }

  /**
   * The account of an access token (the `Authorization` header's value without "Bearer "): the
   * token must be ours and unexpired (spec §7's two messages otherwise), its session not revoked.
   */
  async function authenticate(accessToken: string): Promise<Result<AccountRow, AuthProblem>> {
    const verified = await tokens.verify(accessToken, now())
    if (!verified.ok) return err({ code: verified.problem })
    const account = await liveFamilyAccount(db, verified.claims.familyId, verified.claims.accountId)
    return account ? ok(account) : err({ code: 'session_ended' })
  }

  return {
    signUp,
    verifyEmail,
    signIn,
    refresh,
    signOut,
    requestReset,
    confirmReset,
    resendVerification,
    passwordStrength,
    verifyByOperator,
    authenticate,
    /** Who made a change of a campaign (the guard, after each change that went through). */
    recordChange: (change: Parameters<typeof recordChange>[1]) => recordChange(db, change, now()),
    /** Does the sign-ups and resets answered already (the `advertiser-requests` job, jobs.ts). */
    runRequests: requests.run,
    /** Deletes expired links, tokens, sessions and never-verified accounts (a job, jobs.ts). */
    sweep: () => sweepExpired(db, now(), UNVERIFIED_ACCOUNT_TTL_MS),
  }
}
