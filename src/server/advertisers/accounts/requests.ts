import { randomUUID } from 'node:crypto'
import { RESET_LINK_TTL_MS, VERIFY_LINK_TTL_MS } from '../../../domain/advertiser-account.ts'
import type { Database } from '../../platform/db/client.ts'
import type { Logger } from '../../platform/log.ts'
import { newSecret, secretHash } from '../../platform/secret.ts'
import type { AdvertiserMails } from '../mails/accounts.ts'
import {
  type AccountRequest,
  type AccountRow,
  accountByEmail,
  claimRequests,
  deleteRequest,
  insertAccount,
  replaceLink,
} from './repo.ts'

// The work of sign-ups, password resets and verification links sent again, done after their answer (accounts.ts answers once the
// request is stored: the same work whatever the e-mail, so neither the answer nor its time says
// whether the e-mail has an account). The `advertiser-requests` job runs it on every instance, each
// request claimed under a lease and deleted with its work; an instance that finds it deleted already
// (its lease ran out while it worked, and another did the work) does nothing. A crash between that
// work's commit and its mail loses the mail (the advertiser asks again); it never sends two links.

/** How long an instance holds a request it claimed: far longer than its work takes. */
const LEASE_MS = 60_000
const BATCH = 20

type SignUp = Extract<AccountRequest, { kind: 'sign_up' }>
type Reset = Extract<AccountRequest, { kind: 'reset' }>
type Resend = Extract<AccountRequest, { kind: 'resend' }>

export type AccountRequests = ReturnType<typeof createAccountRequests>

export function createAccountRequests(deps: {
  database: Database
  mails: AdvertiserMails
  log: Logger
  now: () => number
}) {
  const { database: db, mails, log, now } = deps

  /**
   * A new e-mail: an account not verified and a verification link. An account already (verified
   * or not): nothing of it changes and no link is revoked (a stranger's sign-up must not take over
   * an account its owner has not confirmed yet, nor keep the owner from confirming it); its owner
   * gets a mail that says someone tried.
   */
  async function signUp(request: SignUp): Promise<void> {
    const token = newSecret()
    const outcome = await db.transaction(async (tx) => {
      const nowMs = now()
      if (!(await deleteRequest(tx, request.requestId))) return null
      const existing = await accountByEmail(tx, request.email)
      if (existing) return { kind: 'exists' as const, account: existing }
      const made = await insertAccount(
        tx,
        {
          accountId: randomUUID(),
          email: request.email.trim(),
          ...request.details,
        },
        nowMs,
      )
      // the same e-mail signing up twice at once: the other sign-up made the account
      if (!made) {
        const other = await accountByEmail(tx, request.email)
        if (!other) throw new Error('the account vanished while signing up')
        return { kind: 'exists' as const, account: other }
      }
      await replaceLink(
        tx,
        {
          tokenHash: secretHash(token),
          accountId: made.accountId,
          purpose: 'verify',
          passwordHash: null,
          expiresAtMs: nowMs + VERIFY_LINK_TTL_MS,
        },
        nowMs,
      )
      return { kind: 'verify' as const, account: made }
    })
    if (outcome) await mailOf(outcome.kind, outcome.account, token)
  }

  async function mailOf(kind: 'exists' | 'verify', account: AccountRow, token: string) {
    if (kind === 'verify') return mails.verify(account, token)
    return account.verified ? mails.accountExists(account) : mails.signUpPending(account)
  }

  /** A reset link (1 h) by mail when the e-mail has an account; nothing otherwise. */
  async function reset(request: Reset): Promise<void> {
    const token = newSecret()
    const done = await db.transaction(async (tx) => {
      const nowMs = now()
      if (!(await deleteRequest(tx, request.requestId))) return 'done already' as const
      const found = await accountByEmail(tx, request.email.trim())
      if (!found) return null
      await replaceLink(
        tx,
        {
          tokenHash: secretHash(token),
          accountId: found.accountId,
          purpose: 'reset',
          passwordHash: null,
          expiresAtMs: nowMs + RESET_LINK_TTL_MS,
        },
        nowMs,
      )
      return found
    })
    if (done === 'done already') return
    if (done) await mails.passwordReset(done, token)
    else log.info('password reset for an unknown e-mail', { code: 'password_reset_user_not_found' })
  }

  /**
   * "Send the link again": a new verification link (the last one revoked) when the e-mail has an
   * account not verified yet; nothing otherwise (a verified account signs in, or resets its password).
   */
  async function resend(request: Resend): Promise<void> {
    const token = newSecret()
    const done = await db.transaction(async (tx) => {
      const nowMs = now()
      if (!(await deleteRequest(tx, request.requestId))) return null
      const found = await accountByEmail(tx, request.email.trim())
      if (!found || found.verified) return null
      await replaceLink(
        tx,
        {
          tokenHash: secretHash(token),
          accountId: found.accountId,
          purpose: 'verify',
          passwordHash: null,
          expiresAtMs: nowMs + VERIFY_LINK_TTL_MS,
        },
        nowMs,
      )
      return found
    })
    if (done) await mails.verify(done, token)
  }

  return {
    /** Does the requests waiting, oldest first (the `advertiser-requests` job); answers how many. */
    async run(signal?: AbortSignal): Promise<number> {
      let done = 0
      while (!signal?.aborted) {
        const claimed = await claimRequests(db, now(), LEASE_MS, BATCH)
        for (const request of claimed) {
          try {
            if (request.kind === 'sign_up') await signUp(request)
            else if (request.kind === 'resend') await resend(request)
            else await reset(request)
            done++
          } catch (error) {
            // kept: done again once its lease has passed
            log.error('an advertiser’s sign-up or reset failed', { kind: request.kind, error })
          }
        }
        if (claimed.length < BATCH) break
      }
      return done
    },
  }
}
