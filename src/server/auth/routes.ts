import type { Context } from 'hono'
import { ops } from '../../contract/ops/orders.ts'
import { clientAddress } from '../platform/http/client.ts'
import type { ApiRouter } from '../platform/http/router.ts'
import { ok } from '../platform/result.ts'
import type { OpsGuard } from './guard.ts'
import type { AuthError, AuthService } from './service.ts'

/** Refusals that say when to try again carry it as Retry-After too. */
function retryAfter(c: Context, error: AuthError): void {
  if ('params' in error && error.params && 'seconds' in error.params) {
    c.header('Retry-After', String(error.params.seconds))
  }
}

// api-v1 "Operations": sign-in, sign-out, who is signed in, and the one-time set-password link.
// Sign-in and set-password come before any session, so only the Origin check guards them.

export function authRoutes(
  router: ApiRouter,
  auth: AuthService,
  guard: OpsGuard,
  settings: { trustProxy: number },
) {
  router.handle(
    ops.signIn,
    async ({ c, body }) => {
      const address = clientAddress(c, settings.trustProxy)
      const signedIn = await auth.signIn(body.email, body.password, address, body.locale)
      if (!signedIn.ok) {
        retryAfter(c, signedIn.error)
        return signedIn
      }
      guard.setSessionCookie(c, signedIn.value.sessionId)
      c.header('Cache-Control', 'no-store')
      return ok(null)
    },
    guard.sameOrigin,
  )

  router.handle(
    ops.signOut,
    async ({ c }) => {
      const sessionId = guard.sessionIdOf(c)
      if (sessionId) await auth.signOut(sessionId)
      guard.clearSessionCookie(c)
      return ok(null)
    },
    guard.sameOrigin,
  )

  guard.handle(router, ops.session, ({ operator }) =>
    ok({
      email: operator.email,
      role: operator.role,
    }),
  )

  router.handle(
    ops.setPassword,
    async ({ c, body }) => {
      const address = clientAddress(c, settings.trustProxy)
      const set = await auth.setPassword(body.token, body.password, address)
      if (!set.ok) {
        retryAfter(c, set.error)
        return set
      }
      return ok(null)
    },
    guard.sameOrigin,
  )
}
