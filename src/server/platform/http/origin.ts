import type { Context, MiddlewareHandler } from 'hono'
import { allowedRequestOrigin, forwardedHttps } from './client.ts'
import { errorResponse, problem } from './errors.ts'

// The shop's one cross-origin rule (CSRF), used by every guard and route group that answers a browser:
// a state-changing method must come from the shop's own Origin: PUBLIC_BASE_URL's, or without it the
// origin the request came in on (a configured host only). 403 `cross_origin` otherwise.

export const STATE_CHANGING: ReadonlySet<string> = new Set(['POST', 'PUT', 'PATCH', 'DELETE'])

export const CROSS_ORIGIN = problem('cross_origin')

export type OriginSettings = {
  publicBaseUrl: string | undefined
  allowedHosts: ReadonlySet<string>
  trustProxy: number
}

export type OriginCheck = {
  /** The shop's own origin for this request, or null when it came in on a host not configured. */
  shopOrigin(c: Context): string | null
  /** Served over HTTPS: PUBLIC_BASE_URL says so, or a trusted proxy, or the socket itself. */
  secure(c: Context): boolean
  /** For calls that only a page of the shop makes (cookies): the Origin must be there and be ours. */
  sameOrigin: MiddlewareHandler
  /**
   * For calls that carry their own proof (a bearer token): a browser's call from another site is
   * refused; a call without an Origin is not a browser's, so it is no CSRF.
   */
  notCrossOrigin: MiddlewareHandler
}

export function createOriginCheck(settings: OriginSettings): OriginCheck {
  const { allowedHosts, trustProxy } = settings
  const publicOrigin = settings.publicBaseUrl ? new URL(settings.publicBaseUrl).origin : null
  const shopOrigin = (c: Context): string | null =>
    publicOrigin ?? allowedRequestOrigin(c, allowedHosts, trustProxy)
  const secure = (c: Context): boolean =>
    Boolean(publicOrigin?.startsWith('https:')) ||
    forwardedHttps(c, trustProxy) ||
    new URL(c.req.url).protocol === 'https:'

  const sameOrigin: MiddlewareHandler = async (c, next) => {
    if (STATE_CHANGING.has(c.req.method)) {
      const origin = c.req.header('origin')
      const expected = shopOrigin(c)
      if (!origin || !expected || origin !== expected) {
        return errorResponse(c, { problems: [CROSS_ORIGIN] })
      }
    }
    await next()
  }

  const notCrossOrigin: MiddlewareHandler = async (c, next) => {
    const origin = c.req.header('origin')
    if (origin && STATE_CHANGING.has(c.req.method) && origin !== shopOrigin(c)) {
      return errorResponse(c, { problems: [CROSS_ORIGIN] })
    }
    await next()
  }

  return { shopOrigin, secure, sameOrigin, notCrossOrigin }
}
