import * as v from 'valibot'
import { proxy } from 'valtio'
import {
  type AdvertiserAccount,
  type AdvertiserSession,
  advertisers,
} from '../../../contract/advertisers'
import { ErrorBodySchema, problemsOf } from '../../../contract/common'
import { type Endpoint, pathOf, type ResponseOf } from '../../../contract/endpoint'
import type { ProblemCode } from '../../../contract/problems'
import { ACCESS_TOKEN_RENEW_BEFORE_MS } from '../../../domain/advertiser-account'
import { ApiError, apiRequest, callApi } from '../../lib/api'
import { signInAddress } from './guard'

// The advertiser's session in this tab. The access token lives in memory only (never in storage, so
// a script injected later finds none); a reload gets a new one through the refresh cookie, which
// only the server can read. The tabs of a browser share that cookie: when another tab signs in as
// another account, this tab's actions are refused (spec §8, `logged_in_user_changed`) until it signs
// in again.

type SessionState = {
  token: string | null
  expiresAtEpochMs: number
  account: AdvertiserAccount | null
  /** another tab signed in as another account (or signed out) since this tab's sign-in */
  changed: boolean
}

export const advertiserSession = proxy<SessionState>({
  token: null,
  expiresAtEpochMs: 0,
  account: null,
  changed: false,
})

const CHANNEL = 'shouts-advertiser'

type Announcement = { kind: 'signed-in' | 'signed-out'; accountId: string | null }

let channel: BroadcastChannel | null = null
function announcements(): BroadcastChannel | null {
  if (channel || typeof BroadcastChannel === 'undefined') return channel
  channel = new BroadcastChannel(CHANNEL)
  channel.onmessage = (event: MessageEvent<Announcement>) => {
    const mine = advertiserSession.account?.accountId ?? null
    if (mine && event.data.accountId !== mine) advertiserSession.changed = true
  }
  return channel
}

function announce(message: Announcement): void {
  announcements()?.postMessage(message)
}

function keep(session: AdvertiserSession): void {
  advertiserSession.token = session.accessToken
  advertiserSession.expiresAtEpochMs = session.expiresAtEpochMs
  advertiserSession.account = session.account
  advertiserSession.changed = false
  announcements()
}

function forget(): void {
  advertiserSession.token = null
  advertiserSession.expiresAtEpochMs = 0
  advertiserSession.account = null
  advertiserSession.changed = false
}

export const userChanged = () => new ApiError(409, [{ code: 'logged_in_user_changed' }])

/** Signs in (the refresh cookie is set by the answer); other tabs are told. */
export async function signIn(email: string, password: string): Promise<AdvertiserAccount> {
  const session = await callApi(advertisers.signIn, { body: { email, password } })
  keep(session)
  announce({ kind: 'signed-in', accountId: session.account.accountId })
  return session.account
}

/** Signs out: the cookie's session is revoked on the server, the token forgotten here. */
export async function signOut(): Promise<void> {
  try {
    await apiRequest(API_PATH_SESSION, v.null(), { method: advertisers.signOut.method })
  } finally {
    forget()
    announce({ kind: 'signed-out', accountId: null })
  }
}

const API_PATH_SESSION = (pathOf as (e: Endpoint) => string)(advertisers.signOut)

let refreshing: Promise<boolean> | null = null

// The server sets this cookie ('1') with the refresh cookie and clears it with it
// (src/server/advertisers/guard.ts): without it this browser has no session to renew, and asking
// would only log a 401 on a page anyone may open (/account, a proposal's link).
const SIGNED_IN_COOKIE = 'shouts_adv_signed_in'
const mayHaveSession = () =>
  typeof document === 'undefined' ||
  document.cookie.split(';').some((c) => c.trim().startsWith(`${SIGNED_IN_COOKIE}=`))

/**
 * A new access token through the refresh cookie: false when there is no session (no cookie, or one
 * revoked). An account other than this tab's is refused (another tab signed in meanwhile).
 */
export function refresh(): Promise<boolean> {
  if (!advertiserSession.token && !mayHaveSession()) return Promise.resolve(false)
  refreshing ??= (async () => {
    try {
      const before = advertiserSession.account?.accountId ?? null
      const session = await callApi(advertisers.refresh, {})
      if (before && session.account.accountId !== before) {
        advertiserSession.changed = true
        throw userChanged()
      }
      keep(session)
      return true
    } catch (error) {
      if (error instanceof ApiError && error.statusCode === 401) {
        forget()
        return false
      }
      throw error
    } finally {
      refreshing = null
    }
  })()
  return refreshing
}

/** The account signed in in this tab, renewing its token when it is about to expire; null if none. */
export async function ensureSession(now = Date.now()): Promise<AdvertiserAccount | null> {
  if (
    advertiserSession.token &&
    advertiserSession.expiresAtEpochMs - ACCESS_TOKEN_RENEW_BEFORE_MS > now
  ) {
    return advertiserSession.account
  }
  return (await refresh()) ? advertiserSession.account : null
}

// spec §7: a token expired or unreadable (the spec's two token sentences), or no session to renew
// it with, sends the browser to /account, in the page's language, back here once signed in
const SESSION_ENDED: ReadonlySet<string> = new Set<ProblemCode>([
  'session_token_unreadable',
  'session_token_expired',
])

function toSignIn(error: unknown): never {
  if (
    !import.meta.env.SSR &&
    error instanceof ApiError &&
    error.statusCode === 401 &&
    SESSION_ENDED.has(error.problems[0]?.code ?? '')
  ) {
    window.location.assign(signInAddress(window.location.pathname))
  }
  throw error
}

/** The token of this tab's session, renewed first when needed; refused when another account
 * signed in in another tab. */
async function bearer(): Promise<string> {
  if (advertiserSession.changed) throw userChanged()
  const account = await ensureSession()
  if (!account || !advertiserSession.token) {
    throw new ApiError(401, [{ code: 'session_token_expired' }])
  }
  return advertiserSession.token
}

/**
 * A signed-in call: refused here when another account signed in in another tab, with a token
 * renewed first when needed. When the session has ended the browser goes to sign in.
 */
export async function callAsAdvertiser<E extends Endpoint & { readonly response: v.GenericSchema }>(
  endpoint: E,
  options: Parameters<typeof callApi<E>>[1],
): Promise<ResponseOf<E>> {
  const call = callApi as (e: E, o: object) => Promise<ResponseOf<E>>
  try {
    const token = await bearer()
    return await call(endpoint, { ...options, headers: { authorization: `Bearer ${token}` } })
  } catch (error) {
    return toSignIn(error)
  }
}

/**
 * A file the API serves to the signed-in advertiser (a report's CSV), as a Blob the page saves: the
 * token goes in the Authorization header, never in an address a link would carry.
 */
export async function fileAsAdvertiser(path: string): Promise<Blob> {
  try {
    const response = await fetch(path, { headers: { authorization: `Bearer ${await bearer()}` } })
    if (!response.ok) {
      const parsed = v.safeParse(ErrorBodySchema, await response.json().catch(() => null))
      const body = parsed.success ? parsed.output : { errors: [] }
      throw new ApiError(response.status, problemsOf(body), body.errors)
    }
    return await response.blob()
  } catch (error) {
    return toSignIn(error)
  }
}
