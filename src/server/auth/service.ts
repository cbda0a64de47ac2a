import { randomUUID } from 'node:crypto'
import { isLocale, type Locale } from '../../domain/locale.ts'
import {
  type OperatorRole,
  passwordProblem,
  SET_PASSWORD_ATTEMPT_LIMIT,
  SET_PASSWORD_LINK_TTL_MS,
  SIGN_IN_WINDOW_MS,
  sessionAlive,
} from '../../domain/ops.ts'
import type { DomainProblem } from '../../domain/problems.ts'
import type { Database, Queryable } from '../platform/db/client.ts'
import { limitKey } from '../platform/http/client.ts'
import type { Logger } from '../platform/log.ts'
import type { LimitRule, RateLimiter } from '../platform/rate-limit.ts'
import { err, ok, type Result } from '../platform/result.ts'
import { newSecret, secretHash } from '../platform/secret.ts'
import {
  createPasswordWork,
  createSignInLimits,
  type PasswordWork,
  type SignInRefusal,
} from './passwords.ts'
import {
  type AuditRecord,
  adminRecipients,
  auditEntries,
  endSession,
  insertOperator,
  insertSession,
  type Operator,
  openSession,
  operatorByEmail,
  recordAudit,
  replaceSetPasswordToken,
  setOperatorLocale,
  setPasswordHash,
  setPasswordTokenOperator,
  touchSession,
  useSetPasswordToken,
} from './repo.ts'

export type { AuditFilter } from './repo.ts'

// Operators and their sign-in: one-time set-password links,
// argon2id passwords, server-side sessions, and the limits on failed sign-ins. Every secret is >= 128
// random bits, shown once, and stored as its SHA-256; no secret is ever logged or audited.

export type { AuditRecord, AuditRow, Operator } from './repo.ts'

/** Why an operator's call is refused: a problem of the catalogue (src/contract/problems.ts). */
/** The errors of AuthError with these codes (what one call can answer). */
type AuthErrorOf<C extends AuthError['code']> = Extract<AuthError, { code: C }>

export type AuthError =
  | { code: 'operator_exists' }
  | { code: 'operator_not_found' }
  /** passwordProblem's (src/domain/ops.ts): too short or too long */
  | DomainProblem
  | { code: 'link_invalid' }
  | { code: 'wrong_credentials' }
  | { code: 'sign_in_limited'; params: { seconds: number } }
  | { code: 'too_many_requests'; params: { seconds: number } }
  /** the server checks as many passwords as it may at once: try again in a moment */
  | { code: 'sign_in_busy'; params: { seconds: number } }

const setPasswordRule: LimitRule = {
  bucket: 'ops-set-password',
  limit: SET_PASSWORD_ATTEMPT_LIMIT,
  windowMs: SIGN_IN_WINDOW_MS,
}

export { PASSWORD_WORK } from './passwords.ts'

/** What a caller turned away by a full line is told to wait, in seconds. */
const BUSY_RETRY_S = 1

export type AuthService = ReturnType<typeof createAuthService>

export function createAuthService(deps: {
  database: Database
  limiter: RateLimiter
  log: Logger
  now: () => number
  /** Counts each password hash or check, run or refused (the metrics, when on). */
  onPasswordWork?: (kind: 'hash' | 'check', outcome: 'run' | 'refused') => void
}) {
  const { database: db, limiter, log, now } = deps
  // One bound on argon2 work for the process: the advertisers' sign-ins share it (`passwords`).
  const passwords: PasswordWork = createPasswordWork({
    log,
    ...(deps.onPasswordWork ? { onPasswordWork: deps.onPasswordWork } : {}),
  })
  const signInLimits = createSignInLimits(limiter, 'ops')
  const busy = { code: 'sign_in_busy' as const, params: { seconds: BUSY_RETRY_S } }

  /** A new one-time link's token for the operator (older links revoked). */
  async function newLink(operator: Operator): Promise<string> {
    const token = newSecret()
    const nowMs = now()
    await replaceSetPasswordToken(
      db,
      operator.id,
      secretHash(token),
      nowMs,
      nowMs + SET_PASSWORD_LINK_TTL_MS,
    )
    return token
  }

  /** `npm run operator -- add`: a new operator and the token of its one-time link. */
  async function addOperator(
    email: string,
    role: OperatorRole,
  ): Promise<Result<{ operator: Operator; token: string }, AuthError>> {
    return db.transaction(async (tx) => {
      const operator = await insertOperator(
        tx,
        { id: randomUUID(), email: email.trim(), role },
        now(),
      )
      if (!operator) return err({ code: 'operator_exists' as const })
      const token = newSecret()
      const nowMs = now()
      await replaceSetPasswordToken(
        tx,
        operator.id,
        secretHash(token),
        nowMs,
        nowMs + SET_PASSWORD_LINK_TTL_MS,
      )
      await recordAudit(
        tx,
        { operator: null, action: 'operator_added', detail: { email, role } },
        nowMs,
      )
      return ok({ operator, token })
    })
  }

  /** `npm run operator -- --reset`: a new one-time link for an existing operator. */
  async function resetLink(
    email: string,
  ): Promise<Result<{ operator: Operator; token: string }, AuthError>> {
    const found = await operatorByEmail(db, email)
    if (!found) return err({ code: 'operator_not_found' })
    const operator = { id: found.id, email: found.email, role: found.role }
    const token = await newLink(operator)
    await recordAudit(
      db,
      { operator: null, action: 'operator_link_reset', detail: { email } },
      now(),
    )
    return ok({ operator, token })
  }

  /**
   * POST /ops/set-password: the link's token, once, within 24 h; then a password of >= 12. Attempts
   * are limited per address, and the link is looked up before any hashing: a made-up token costs a
   * query, not an argon2 hash.
   */
  async function setPassword(
    token: string,
    password: string,
    address: string,
  ): Promise<
    Result<
      void,
      | AuthErrorOf<'too_many_requests' | 'link_invalid' | 'sign_in_busy'>
      | NonNullable<ReturnType<typeof passwordProblem>>
    >
  > {
    const take = await limiter.take(setPasswordRule, limitKey(address))
    if (!take.allowed) {
      return err({ code: 'too_many_requests', params: { seconds: take.retryAfterS } })
    }
    const weak = passwordProblem(password)
    if (weak) return err(weak)
    const tokenHash = secretHash(token)
    if (!(await setPasswordTokenOperator(db, tokenHash, now())))
      return err({ code: 'link_invalid' })
    // Hashed before the token is used up, so a crash in between leaves the link usable.
    const hashed = await passwords.hash(password)
    if (!hashed.ok) return err(busy)
    return db.transaction(async (tx) => {
      const nowMs = now()
      const operator = await useSetPasswordToken(tx, tokenHash, nowMs)
      if (!operator) return err({ code: 'link_invalid' as const })
      await setPasswordHash(tx, operator.id, hashed.value, nowMs)
      await recordAudit(tx, { operator, action: 'set_password' }, nowMs)
      return ok(undefined)
    })
  }

  /**
   * A refusal of the sign-in limits, audited once per window and scope (the first refused attempt),
   * so a flood cannot fill the audit log. `scope` says which limit: the account from this address,
   * the address, or the account from everywhere (someone guessing from many addresses).
   */
  async function limited(
    refusals: SignInRefusal[],
    account: string,
    address: string,
  ): Promise<Result<never, AuthErrorOf<'sign_in_limited'>>> {
    for (const { scope, take, limit } of refusals) {
      if (take.allowed || take.hits !== limit + 1) continue
      if (scope === 'account') {
        log.warn('sign-ins to one account limited across addresses', { email: account })
      }
      await recordAudit(
        db,
        { operator: null, action: 'sign_in_limited', detail: { email: account, address, scope } },
        now(),
      )
    }
    const seconds = Math.max(...refusals.map(({ take }) => (take.allowed ? 0 : take.retryAfterS)))
    return err({ code: 'sign_in_limited', params: { seconds } })
  }

  /**
   * POST /ops/session. Each attempt counts before the password is checked (atomic on the shared
   * limiter, so parallel guesses cannot slip past a limit): against the account from this address
   * and against the address first; only an attempt those let through counts against the account
   * everywhere, so a guesser held at one address cannot go on to lock the owner out. A successful
   * sign-in gives its hits back, so only failures add up.
   */
  async function signIn(
    email: string,
    password: string,
    address: string,
    /** the console's language: the operator's mails are written in it */
    locale?: Locale,
  ): Promise<
    Result<
      { sessionId: string; operator: Operator },
      AuthErrorOf<'sign_in_limited' | 'sign_in_busy' | 'wrong_credentials'>
    >
  > {
    const account = email.trim().toLowerCase()
    const taken = await signInLimits.take(account, address)
    if (!taken.allowed) return limited(taken.refusals, account, address)
    const found = await operatorByEmail(db, account)
    const checked = await passwords.check(found?.passwordHash ?? null, password)
    // Turned away unchecked: not a failure of the password.
    if (!checked.ok) {
      await taken.giveBack()
      return err(busy)
    }
    if (!found?.passwordHash || !checked.value) {
      await recordAudit(
        db,
        {
          operator: found ? { id: found.id, email: found.email } : null,
          action: 'sign_in_failed',
          detail: { email: account, address },
        },
        now(),
      )
      return err({ code: 'wrong_credentials' })
    }
    await taken.giveBack()
    const operator = { id: found.id, email: found.email, role: found.role }
    const sessionId = newSecret()
    const nowMs = now()
    await db.transaction(async (tx) => {
      await insertSession(tx, secretHash(sessionId), operator.id, nowMs)
      if (locale) await setOperatorLocale(tx, operator.id, locale)
      await recordAudit(tx, { operator, action: 'sign_in', detail: { address } }, nowMs)
    })
    return ok({ sessionId, operator })
  }

  /** DELETE /ops/session: ends the session (nothing to do for an unknown or ended one). */
  async function signOut(sessionId: string): Promise<void> {
    const nowMs = now()
    await db.transaction(async (tx) => {
      const operator = await endSession(tx, secretHash(sessionId), nowMs)
      if (operator) await recordAudit(tx, { operator, action: 'sign_out' }, nowMs)
    })
  }

  /**
   * The operator of a live session, null otherwise. A call renews the session (12 h idle); the
   * renewal is written at most once a minute, so reading pages costs no write per call.
   */
  async function sessionOperator(sessionId: string): Promise<Operator | null> {
    const idHash = secretHash(sessionId)
    const row = await openSession(db, idHash)
    const nowMs = now()
    if (!row || !sessionAlive(row.lastSeenEpochMs, nowMs)) return null
    if (nowMs - row.lastSeenEpochMs > 60_000) await touchSession(db, idHash, nowMs)
    return { id: row.id, email: row.email, role: row.role }
  }

  return {
    addOperator,
    resetLink,
    setPassword,
    signIn,
    signOut,
    sessionOperator,
    /**
     * Writes one audit row (who did what to which order); pass the transaction that makes the
     * change, so both or neither happen.
     */
    recordAudit: (tx: Queryable, record: AuditRecord) => recordAudit(tx, record, now()),
    /** The admins who can sign in, each with the language of the console they last used. */
    async adminRecipients(): Promise<{ email: string; locale: Locale }[]> {
      const rows = await adminRecipients(db)
      return rows.map((r) => ({ email: r.email, locale: isLocale(r.locale) ? r.locale : 'en' }))
    },
    /** The audit log, newest first (api-v1 GET /ops/audit). */
    auditEntries: (query: Parameters<typeof auditEntries>[1]) => auditEntries(db, query),
    /** argon2id hashes and checks under the process's one bound (the advertisers' sign-ins too). */
    passwords,
  }
}
