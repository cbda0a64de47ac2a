import { hash, verify } from '@node-rs/argon2'
import { SIGN_IN_FAILURE_LIMITS, SIGN_IN_WINDOW_MS } from '../../domain/ops.ts'
import { limitKey } from '../platform/http/client.ts'
import type { Logger } from '../platform/log.ts'
import type { LimitRule, RateLimiter, Take } from '../platform/rate-limit.ts'
import { newSecret } from '../platform/secret.ts'
import { createWorkGate, type Gated } from '../platform/work-gate.ts'

// What every sign-in of the shop shares (operators' here, advertisers' in src/server/advertisers):
// argon2id hashes and checks through one bound per process, and the limits on failed sign-ins.

/**
 * Password hashes and checks (argon2id) running at once in this process, and waiting: two of
 * libuv's four threads at most, so file reads, compression and sharp keep the other two.
 */
export const PASSWORD_WORK = { running: 2, waiting: 8 }

export type PasswordWork = {
  /** An argon2id hash, or `{ok: false}` when the line of password work is full. */
  hash(password: string): Promise<Gated<string>>
  /**
   * Whether the password matches the hash. Without a hash (an unknown e-mail) it is checked against
   * a hash of a random secret, so the answer takes as long whether the account exists or not.
   */
  check(passwordHash: string | null, password: string): Promise<Gated<boolean>>
}

export function createPasswordWork(deps: {
  log: Logger
  /** Counts each password hash or check, run or refused (the metrics, when on). */
  onPasswordWork?: (kind: 'hash' | 'check', outcome: 'run' | 'refused') => void
}): PasswordWork {
  const gate = createWorkGate(PASSWORD_WORK)
  const run = async <T>(kind: 'hash' | 'check', task: () => Promise<T>) => {
    const done = await gate.run(task)
    deps.onPasswordWork?.(kind, done.ok ? 'run' : 'refused')
    return done
  }
  let dummyHash: Promise<string> | null = null
  const dummy = () => {
    dummyHash ??= hash(newSecret())
    return dummyHash
  }
  return {
    hash: (password) => run('hash', () => hash(password)),
    check: (passwordHash, password) =>
      run('check', async () => {
        try {
          const matches = await verify(passwordHash ?? (await dummy()), password)
          return matches && passwordHash !== null
        } catch (error) {
          deps.log.warn('password check failed', { error })
          return false
        }
      }),
  }
}

/** Which limit refused a sign-in: the account from this address, the address, the account anywhere. */
export type SignInRefusal = {
  scope: 'account_at_address' | 'address' | 'account'
  take: Take
  limit: number
}

export type SignInTake =
  | {
      allowed: true /** A sign-in that succeeded gives its hits back. */
      giveBack(): Promise<void>
    }
  | { allowed: false; refusals: SignInRefusal[]; seconds: number }

/**
 * The limits on sign-ins of one kind (`prefix`: 'ops', 'advertiser'), on the shared limiter. Each
 * attempt counts before the password is checked (atomic, so parallel guesses cannot slip past a
 * limit): against the account from this address and against the address first; only an attempt
 * those let through counts against the account everywhere, so a guesser held at one address cannot
 * go on to lock the owner out.
 */
export function createSignInLimits(limiter: RateLimiter, prefix: string) {
  const rule = (name: string, limit: number): LimitRule => ({
    bucket: `${prefix}-${name}`,
    limit,
    windowMs: SIGN_IN_WINDOW_MS,
  })
  const accountAtAddress = rule('sign-in-account-address', SIGN_IN_FAILURE_LIMITS.accountAtAddress)
  const byAddress = rule('sign-in-address', SIGN_IN_FAILURE_LIMITS.address)
  const byAccount = rule('sign-in-account', SIGN_IN_FAILURE_LIMITS.account)
  const secondsOf = (refusals: SignInRefusal[]) =>
    Math.max(...refusals.map(({ take }) => (take.allowed ? 0 : take.retryAfterS)))

  return {
    async take(email: string, address: string): Promise<SignInTake> {
      const account = email.trim().toLowerCase()
      const where = limitKey(address)
      const [atAddress, fromAddress] = await Promise.all([
        limiter.take(accountAtAddress, `${account} ${where}`),
        limiter.take(byAddress, where),
      ])
      if (!atAddress.allowed || !fromAddress.allowed) {
        const refusals: SignInRefusal[] = [
          { scope: 'account_at_address', take: atAddress, limit: accountAtAddress.limit },
          { scope: 'address', take: fromAddress, limit: byAddress.limit },
        ]
        return { allowed: false, refusals, seconds: secondsOf(refusals) }
      }
      const anywhere = await limiter.take(byAccount, account)
      if (!anywhere.allowed) {
        const refusals: SignInRefusal[] = [
          { scope: 'account', take: anywhere, limit: byAccount.limit },
        ]
        return { allowed: false, refusals, seconds: secondsOf(refusals) }
      }
      return {
        allowed: true,
        async giveBack() {
          await Promise.all([
            limiter.giveBack(accountAtAddress, `${account} ${where}`),
            limiter.giveBack(byAddress, where),
            limiter.giveBack(byAccount, account),
          ])
        },
      }
    },
  }
}
