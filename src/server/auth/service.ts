import { randomUUID } from 'node:crypto'
import { hash, verify } from '@node-rs/argon2'
import {
  type OperatorRole,
  passwordProblem,
  SET_PASSWORD_LINK_TTL_MS,
  SIGN_IN_FAILURE_LIMIT,
  SIGN_IN_WINDOW_MS,
  sessionAlive,
} from '../../domain/ops.ts'
import type { DomainProblem } from '../../domain/problems.ts'
import type { Database } from '../platform/db/client.ts'
import type { Logger } from '../platform/log.ts'
import type { LimitRule, RateLimiter } from '../platform/rate-limit.ts'
import { err, ok, type Result } from '../platform/result.ts'
import { newSecret, secretHash } from '../platform/secret.ts'
import {
  endSession,
  insertOperator,
  insertSession,
  type Operator,
  openSession,
  operatorByEmail,
  recordAudit,
  replaceSetPasswordToken,
  setPasswordHash,
  touchSession,
  useSetPasswordToken,
} from './repo.ts'

// Operators and their sign-in: one-time set-password links,
// argon2id passwords, server-side sessions, and the limits on failed sign-ins. Every secret is >= 128
// random bits, shown once, and stored as its SHA-256; no secret is ever logged or audited.

export type { Operator } from './repo.ts'

/** Why an operator's call is refused: a problem of the catalogue (src/contract/problems.ts). */
export type AuthError =
  | { code: 'operator_exists' }
  | { code: 'operator_not_found' }
  /** passwordProblem's (src/domain/ops.ts): too short or too long */
  | DomainProblem
  | { code: 'link_invalid' }
  | { code: 'wrong_credentials' }
  | { code: 'sign_in_limited'; params: { seconds: number } }

const accountRule: LimitRule = {
  bucket: 'ops-sign-in-account',
  limit: SIGN_IN_FAILURE_LIMIT,
  windowMs: SIGN_IN_WINDOW_MS,
}
const addressRule: LimitRule = {
  bucket: 'ops-sign-in-address',
  limit: SIGN_IN_FAILURE_LIMIT,
  windowMs: SIGN_IN_WINDOW_MS,
}

export type AuthService = ReturnType<typeof createAuthService>

export function createAuthService(deps: {
  database: Database
  limiter: RateLimiter
  log: Logger
  now: () => number
}) {
  const { database: db, limiter, log, now } = deps
  // Unknown e-mails are checked against this hash, so a sign-in takes as long whether the account
  // exists or not (the answer never says whether the e-mail exists).
  let dummyHash: Promise<string> | null = null
  const dummy = () => {
    dummyHash ??= hash(newSecret())
    return dummyHash
  }

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

  /** POST /ops/set-password: the link's token, once, within 24 h; then a password of >= 12. */
  async function setPassword(token: string, password: string): Promise<Result<void, AuthError>> {
    const weak = passwordProblem(password)
    if (weak) return err(weak)
    // Hashed before the token is used up, so a crash in between leaves the link usable.
    const passwordHash = await hash(password)
    return db.transaction(async (tx) => {
      const nowMs = now()
      const operator = await useSetPasswordToken(tx, secretHash(token), nowMs)
      if (!operator) return err({ code: 'link_invalid' as const })
      await setPasswordHash(tx, operator.id, passwordHash, nowMs)
      await recordAudit(tx, { operator, action: 'set_password' }, nowMs)
      return ok(undefined)
    })
  }

  /**
   * POST /ops/session. Each attempt counts against the account and the address before the password
   * is checked (atomic on the shared limiter, so parallel guesses cannot slip past the limit); a
   * successful one gives its hits back, so only failures add up (10 in 15 minutes, then 429).
   */
  async function signIn(
    email: string,
    password: string,
    address: string,
  ): Promise<Result<{ sessionId: string; operator: Operator }, AuthError>> {
    const account = email.trim().toLowerCase()
    const [byAccount, byAddress] = await Promise.all([
      limiter.take(accountRule, account),
      limiter.take(addressRule, address),
    ])
    if (!byAccount.allowed || !byAddress.allowed) {
      const retryAfterS = Math.max(
        byAccount.allowed ? 0 : byAccount.retryAfterS,
        byAddress.allowed ? 0 : byAddress.retryAfterS,
      )
      // Written once a window (the first refused attempt), so a flood cannot fill the audit log.
      const first =
        byAccount.hits === accountRule.limit + 1 || byAddress.hits === addressRule.limit + 1
      if (first) {
        await recordAudit(
          db,
          { operator: null, action: 'sign_in_limited', detail: { email: account, address } },
          now(),
        )
      }
      return err({ code: 'sign_in_limited', params: { seconds: retryAfterS } })
    }
    const found = await operatorByEmail(db, account)
    let valid = false
    try {
      valid = await verify(found?.passwordHash ?? (await dummy()), password)
    } catch (error) {
      log.warn('password check failed', { operatorId: found?.id ?? null, error })
    }
    if (!found?.passwordHash || !valid) {
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
    await Promise.all([
      limiter.giveBack(accountRule, account),
      limiter.giveBack(addressRule, address),
    ])
    const operator = { id: found.id, email: found.email, role: found.role }
    const sessionId = newSecret()
    const nowMs = now()
    await db.transaction(async (tx) => {
      await insertSession(tx, secretHash(sessionId), operator.id, nowMs)
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

  return { addOperator, resetLink, setPassword, signIn, signOut, sessionOperator }
}
