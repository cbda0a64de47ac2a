import type { Context, MiddlewareHandler } from 'hono'
import { deleteCookie, getCookie, setCookie } from 'hono/cookie'
import type { Endpoint } from '../../contract/endpoint.ts'
import type { ProblemCode } from '../../contract/problems.ts'
import { type OperatorRole, roleAllows } from '../../domain/ops.ts'
import { errorResponse, problem } from '../platform/http/errors.ts'
import type { OriginCheck } from '../platform/http/origin.ts'
import type { ApiRouter, DeclaredOnly, Handler, HandlerInput } from '../platform/http/router.ts'
import type { Operator } from './repo.ts'
import type { AuthService } from './service.ts'

// The one gate of /api/v1/ops (decision 017): every operator endpoint is registered through
// `guard.handle(router, endpoint, handler)`, which puts three checks in front of the handler (before
// the body is even read):
// 1. a state-changing method (POST, PUT, PATCH, DELETE) must carry the shop's own Origin
//    (platform/http/origin.ts `sameOrigin`): 403 `cross_origin` otherwise (CSRF; SameSite=Strict is
//    the second wall);
// 2. a live session (cookie → hashed id → operator_sessions, 12 h idle): 401 `sign_in_required`;
// 3. the endpoint's `access` role (contract/ops/; admins may do all reviewers do): 403
//    `role_forbidden`.
// The handler receives the operator.

export const SESSION_COOKIE = 'shouts_ops'
/** The cookie's name over HTTPS: the __Host- prefix pins it to this host, path / and Secure. */
export const SECURE_SESSION_COOKIE = `__Host-${SESSION_COOKIE}`

export { CROSS_ORIGIN } from '../platform/http/origin.ts'
export const SIGN_IN_REQUIRED = problem('sign_in_required')
export const ROLE_FORBIDDEN = problem('role_forbidden')

/** An endpoint of the console: its `access` names the least role that may call it. */
export type OpsEndpoint = Endpoint & { readonly access: OperatorRole }

export type OpsHandler<E extends Endpoint, C extends ProblemCode = ProblemCode> = (
  input: HandlerInput<E> & { operator: Operator },
) => ReturnType<Handler<E, C>>

export type OpsGuard = {
  /**
   * Registers an operator endpoint behind the Origin, session and role checks; `after` runs once they
   * passed, before the body is read (e.g. a larger body limit for the catalogue upload).
   */
  handle<E extends OpsEndpoint, C extends ProblemCode = never>(
    router: ApiRouter,
    e: E,
    handler: OpsHandler<E, C> & DeclaredOnly<E, C>,
    ...after: MiddlewareHandler[]
  ): void
  /** The Origin check alone, for the calls made before there is a session (sign-in, set-password). */
  sameOrigin: MiddlewareHandler
  /** The operator of the request's session, or null (no cookie, unknown, ended or idle). */
  operatorOf(c: Context): Promise<Operator | null>
  /** Sets the session cookie (HttpOnly, SameSite=Strict, Path=/, Secure and __Host- over HTTPS). */
  setSessionCookie(c: Context, sessionId: string): void
  /** The session id the request carries, if any. */
  sessionIdOf(c: Context): string | null
  clearSessionCookie(c: Context): void
}

const OPERATOR = 'opsOperator'

export function createOpsGuard(deps: { auth: AuthService; origin: OriginCheck }): OpsGuard {
  const { auth } = deps
  const { secure, sameOrigin } = deps.origin

  // Over HTTPS only the __Host- cookie counts: a cookie without the prefix may have been set by a
  // sibling subdomain or over plain HTTP, by someone who wants the operator in their session.
  const sessionIdOf = (c: Context): string | null => {
    const id = secure(c) ? getCookie(c, SECURE_SESSION_COOKIE) : getCookie(c, SESSION_COOKIE)
    return id && /^[\w-]{20,100}$/.test(id) ? id : null
  }

  const operatorOf = async (c: Context): Promise<Operator | null> => {
    const id = sessionIdOf(c)
    return id ? auth.sessionOperator(id) : null
  }

  const requireRole =
    (role: OperatorRole): MiddlewareHandler =>
    async (c, next) => {
      const operator = await operatorOf(c)
      if (!operator) return errorResponse(c, { problems: [SIGN_IN_REQUIRED] })
      if (!roleAllows(operator.role, role)) return errorResponse(c, { problems: [ROLE_FORBIDDEN] })
      c.set(OPERATOR as never, operator as never)
      // An operator's answers are never kept by a browser or a proxy.
      c.header('Cache-Control', 'no-store')
      await next()
    }

  return {
    sameOrigin,
    operatorOf,
    sessionIdOf,
    handle(router, e, handler, ...after) {
      // the handler's refusals are checked against the endpoint where it is given (OpsGuard)
      const guarded: Handler<typeof e, ProblemCode> = (input) => {
        const operator = input.c.get(OPERATOR as never) as Operator | undefined
        if (!operator) throw new Error(`${e.name}: reached without the ops guard`)
        return handler({ ...input, operator })
      }
      router.handle(
        e,
        guarded as Handler<typeof e, never>,
        sameOrigin,
        requireRole(e.access),
        ...after,
      )
    },
    setSessionCookie(c, sessionId) {
      const isSecure = secure(c)
      // Hono names it __Host-… with prefix 'host'. No Max-Age: the server ends it (12 h idle, sign-out).
      setCookie(c, SESSION_COOKIE, sessionId, {
        httpOnly: true,
        sameSite: 'Strict',
        path: '/',
        secure: isSecure,
        ...(isSecure ? { prefix: 'host' as const } : {}),
      })
    },
    clearSessionCookie(c) {
      const isSecure = secure(c)
      if (isSecure) deleteCookie(c, SESSION_COOKIE, { path: '/', secure: true, prefix: 'host' })
      else deleteCookie(c, SESSION_COOKIE, { path: '/' })
    },
  }
}
