import { randomUUID } from 'node:crypto'
import { hash, verify } from '@node-rs/argon2'
import {
  type OperatorRole,
  passwordProblem,
  SET_PASSWORD_ATTEMPT_LIMIT,
  SET_PASSWORD_LINK_TTL_MS,
  SIGN_IN_FAILURE_LIMITS,
  SIGN_IN_WINDOW_MS,
  sessionAlive,
} from '../../domain/ops.ts'
import type { DomainProblem } from '../../domain/problems.ts'
import type { Database } from '../platform/db/client.ts'
import { limitKey } from '../platform/http/client.ts'
import type { Logger } from '../platform/log.ts'
import type { LimitRule, RateLimiter, Take } from '../platform/rate-limit.ts'
import { err, ok, type Result } from '../platform/result.ts'
import { newSecret, secretHash } from '../platform/secret.ts'
import { createWorkGate } from '../platform/work-gate.ts'
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
  setPasswordTokenOperator,
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
  | { code: 'too_many_requests'; params: { seconds: number } }
  /** the server checks as many passwords as it may at once: try again in a moment */
  | { code: 'sign_in_busy'; params: { seconds: number } }

const rule = (bucket: string, limit: number): LimitRule => ({
  bucket,
  limit,
  windowMs: SIGN_IN_WINDOW_MS,
})
const accountAtAddressRule = rule(
  'ops-sign-in-account-address',
  SIGN_IN_FAILURE_LIMITS.accountAtAddress,
)
const addressRule = rule('ops-sign-in-address', SIGN_IN_FAILURE_LIMITS.address)
const accountRule = rule('ops-sign-in-account', SIGN_IN_FAILURE_LIMITS.account)
const setPasswordRule = rule('ops-set-password', SET_PASSWORD_ATTEMPT_LIMIT)

/**
 * Password hashes and checks (argon2id) running at once in this process, and waiting: two of
 * libuv's four threads at most, so file reads, compression and sharp keep the other two.
 */
export const PASSWORD_WORK = { running: 2, waiting: 8 }
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
  const gate = createWorkGate(PASSWORD_WORK)
  const passwordWork = {
    async run<T>(kind: 'hash' | 'check', task: () => Promise<T>) {
      const done = await gate.run(task)
      deps.onPasswordWork?.(kind, done.ok ? 'run' : 'refused')
      return done
    },
  }
  const busy = { code: 'sign_in_busy' as const, params: { seconds: BUSY_RETRY_S } }
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

  /**
   * POST /ops/set-password: the link's token, once, within 24 h; then a password of >= 12. Attempts
   * are limited per address, and the link is looked up before any hashing: a made-up token costs a
   * query, not an argon2 hash.
   */
  async function setPassword(
    token: string,
    password: string,
    address: string,
  ): Promise<Result<void, AuthError>> {
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
    const hashed = await passwordWork.run('hash', () => hash(password))
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
    refusals: { scope: 'account_at_address' | 'address' | 'account'; take: Take; limit: number }[],
    account: string,
    address: string,
  ): Promise<Result<never, AuthError>> {
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
  ): Promise<Result<{ sessionId: string; operator: Operator }, AuthError>> {
    const account = email.trim().toLowerCase()
    const where = limitKey(address)
    const [atAddress, byAddress] = await Promise.all([
      limiter.take(accountAtAddressRule, `${account} ${where}`),
      limiter.take(addressRule, where),
    ])
    if (!atAddress.allowed || !byAddress.allowed) {
      return limited(
        [
          { scope: 'account_at_address', take: atAddress, limit: accountAtAddressRule.limit },
          { scope: 'address', take: byAddress, limit: addressRule.limit },
        ],
        account,
        address,
      )
    }
    const byAccount = await limiter.take(accountRule, account)
    if (!byAccount.allowed) {
      return limited(
        [{ scope: 'account', take: byAccount, limit: accountRule.limit }],
        account,
        address,
      )
    }
    const found = await operatorByEmail(db, account)
    const checked = await passwordWork.run('check', async () => {
      try {
        return await verify(found?.passwordHash ?? (await dummy()), password)
      } catch (error) {
        log.warn('password check failed', { operatorId: found?.id ?? null, error })
        return false
      }
    })
    const giveBack = () =>
      Promise.all([
        limiter.giveBack(accountAtAddressRule, `${account} ${where}`),
        limiter.giveBack(addressRule, where),
        limiter.giveBack(accountRule, account),
      ])
    // Turned away unchecked: not a failure of the password.
    if (!checked.ok) {
      await giveBack()
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
    await giveBack()
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
