import type { Context, MiddlewareHandler } from 'hono'
import { deleteCookie, getCookie, setCookie } from 'hono/cookie'
import { API_BASE, type Endpoint } from '../../contract/endpoint.ts'
import type { ProblemCode } from '../../contract/problems.ts'
import { REFRESH_TOKEN_TTL_MS } from '../../domain/advertiser-account.ts'
import { memberMay, roleNeeded } from '../../domain/team.ts'
import { errorResponse, problem } from '../platform/http/errors.ts'
import { type OriginCheck, STATE_CHANGING } from '../platform/http/origin.ts'
import type { ApiRouter, DeclaredOnly, Handler, HandlerInput } from '../platform/http/router.ts'
import type { AccountService } from './accounts/accounts.ts'
import type { AccountRow } from './accounts/repo.ts'

// The one gate of the advertisers' signed-in calls: each is registered through
// `guard.handle(router, endpoint, handler)`, which checks, before the body is read:
// 1. the Origin: a browser's call from another site is refused (403 `cross_origin`); a call without
//    an Origin (not a browser) carries its own proof, the bearer token, so it is not a CSRF;
// 2. `Authorization: Bearer {accessToken}` (spec §7: any "Bearer " prefix removed): missing, 401
//    `authorization_missing`; not one of ours, 401 `session_token_unreadable`; expired, 401
//    `session_token_expired` (the app then goes to /account); its session revoked, 401
//    `session_ended`.
// 3. the caller's role in its team (src/domain/team.ts): a call its role may not make is 403
//    `member_role_forbidden`, before the body is read.
// The handler receives the team's account (`account`, whose campaigns, billing and invoices every
// login of the team works on) and the signed-in login (`login`). Each change of a campaign that went
// through is recorded with the login that made it (campaign_changes). The refresh token travels only in its cookie: HttpOnly,
// SameSite=Strict, scoped to /api/v1/advertisers/session (refresh and sign-out), Secure over HTTPS
// (with the __Secure- prefix); the calls that read or set it must come from the shop's own Origin.
// Beside it, SIGNED_IN_COOKIE ('1', no secret, readable by the pages) lives and dies with it: a page
// asks for a refresh only when it is there, so a visitor who never signed in sends none (a 401 in
// every public page's console otherwise).

export const REFRESH_COOKIE = 'shouts_adv_refresh'
export const SIGNED_IN_COOKIE = 'shouts_adv_signed_in'
const REFRESH_COOKIE_PATH = `${API_BASE}/advertisers/session`
const ACCOUNT = 'advertiserAccount'

export type AdvertiserHandler<E extends Endpoint, C extends ProblemCode = ProblemCode> = (
  input: HandlerInput<E> & { account: AccountRow; login: AccountRow },
) => ReturnType<Handler<E, C>>

export type AdvertiserGuard = ReturnType<typeof createAdvertiserGuard>

export function createAdvertiserGuard(deps: { accounts: AccountService; origin: OriginCheck }) {
  const { accounts } = deps
  // the calls of the refresh cookie (sign-in, refresh, sign-out) come from the shop's own pages;
  // a bearer's call with no Origin carries its own token
  const { secure, sameOrigin, notCrossOrigin } = deps.origin

  const bearer: MiddlewareHandler = async (c, next) => {
    const header = c.req.header('authorization')
    if (header === undefined || header.trim() === '') {
      return errorResponse(c, { problems: [problem('authorization_missing')] })
    }
    const token = header.replace(/^\s*Bearer\s+/i, '').trim()
    if (!token) return errorResponse(c, { problems: [problem('session_token_unreadable')] })
    const found = await accounts.authenticate(token)
    if (!found.ok) return errorResponse(c, { problems: [problem(found.error.code)] })
    c.set(ACCOUNT as never, found.value as never)
    // an account's answers are never kept by a browser or a proxy
    c.header('Cache-Control', 'no-store')
    await next()
  }

  /** The least role the call needs (src/domain/team.ts), checked before the body is read. */
  const roleCheck =
    (e: Endpoint): MiddlewareHandler =>
    async (c, next) => {
      const login = c.get(ACCOUNT as never) as AccountRow
      if (!memberMay(login.role, roleNeeded(e))) {
        return errorResponse(c, { problems: [problem('member_role_forbidden')] })
      }
      await next()
    }

  /** A change of a campaign that went through, with the login that made it. */
  const recordChange =
    (e: Endpoint): MiddlewareHandler =>
    async (c, next) => {
      await next()
      if (!STATE_CHANGING.has(c.req.method) || c.res.status >= 300) return
      let campaignId = c.req.param('campaignId') ?? null
      if (!campaignId && c.res.headers.get('content-type')?.includes('json')) {
        const body = (await c.res
          .clone()
          .json()
          .catch(() => null)) as {
          campaignId?: unknown
        } | null
        campaignId = typeof body?.campaignId === 'string' ? body.campaignId : null
      }
      if (!campaignId) return
      const login = c.get(ACCOUNT as never) as AccountRow
      await accounts.recordChange({
        campaignId,
        memberId: login.accountId,
        email: login.email,
        change: e.name,
      })
    }

  const cookieName = (c: Context) => (secure(c) ? `__Secure-${REFRESH_COOKIE}` : REFRESH_COOKIE)

  return {
    sameOrigin,
    /** The signed-in account of a call past the guard (for a limit counted per account). */
    accountOf(c: Context): AccountRow {
      const account = c.get(ACCOUNT as never) as AccountRow | undefined
      if (!account) throw new Error("an account asked for before the advertisers' guard")
      return account
    },
    /** Registers an endpoint behind the guard; its refusals are typed by it as router.handle's. */
    handle<E extends Endpoint, C extends ProblemCode = never>(
      router: ApiRouter,
      e: E,
      handler: AdvertiserHandler<E, C> & DeclaredOnly<E, C>,
      ...after: MiddlewareHandler[]
    ): void {
      // the handler's refusals are checked against the endpoint above (DeclaredOnly)
      const guarded: Handler<E, C> = (input) => {
        const login = input.c.get(ACCOUNT as never) as AccountRow | undefined
        if (!login) throw new Error(`${e.name}: reached without the advertisers' guard`)
        return handler({ ...input, account: { ...login, accountId: login.teamId }, login })
      }
      router.handle(
        e,
        guarded as Handler<E, never>,
        notCrossOrigin,
        bearer,
        roleCheck(e),
        recordChange(e),
        ...after,
      )
    },
    refreshTokenOf(c: Context): string | null {
      const value = getCookie(c, `__Secure-${REFRESH_COOKIE}`) ?? getCookie(c, REFRESH_COOKIE)
      return value && /^[\w-]{20,100}$/.test(value) ? value : null
    },
    setRefreshCookie(c: Context, token: string): void {
      const isSecure = secure(c)
      // Hono writes the __Secure- prefix itself with prefix 'secure'
      setCookie(c, REFRESH_COOKIE, token, {
        httpOnly: true,
        sameSite: 'Strict',
        path: REFRESH_COOKIE_PATH,
        secure: isSecure,
        maxAge: Math.floor(REFRESH_TOKEN_TTL_MS / 1000),
        ...(isSecure ? { prefix: 'secure' as const } : {}),
      })
      setCookie(c, SIGNED_IN_COOKIE, '1', {
        sameSite: 'Strict',
        path: '/',
        secure: isSecure,
        maxAge: Math.floor(REFRESH_TOKEN_TTL_MS / 1000),
      })
    },
    clearRefreshCookie(c: Context): void {
      const isSecure = secure(c)
      deleteCookie(c, REFRESH_COOKIE, {
        path: REFRESH_COOKIE_PATH,
        secure: isSecure,
        ...(isSecure ? { prefix: 'secure' as const } : {}),
      })
      deleteCookie(c, SIGNED_IN_COOKIE, { path: '/', secure: isSecure })
    },
    cookieName,
  }
}
