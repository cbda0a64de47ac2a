import { ops } from '../../contract/ops.ts'
import { clientAddress } from '../platform/http/client.ts'
import { refuse } from '../platform/http/errors.ts'
import type { ApiRouter } from '../platform/http/router.ts'
import type { OpsGuard } from './guard.ts'
import type { AuthService } from './service.ts'

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
      const signedIn = await auth.signIn(body.email, body.password, address)
      if (!signedIn.ok) {
        const { error } = signedIn
        if (error.code === 'sign_in_limited') c.header('Retry-After', String(error.params.seconds))
        return refuse({ problems: [error] })
      }
      guard.setSessionCookie(c, signedIn.value.sessionId)
      c.header('Cache-Control', 'no-store')
      return null
    },
    guard.sameOrigin,
  )

  router.handle(
    ops.signOut,
    async ({ c }) => {
      const sessionId = guard.sessionIdOf(c)
      if (sessionId) await auth.signOut(sessionId)
      guard.clearSessionCookie(c)
      return null
    },
    guard.sameOrigin,
  )

  guard.handle(router, ops.session, ({ operator }) => ({
    email: operator.email,
    role: operator.role,
  }))

  router.handle(
    ops.setPassword,
    async ({ body }) => {
      const set = await auth.setPassword(body.token, body.password)
      if (!set.ok) return refuse({ problems: [set.error] })
      return null
    },
    guard.sameOrigin,
  )
}
