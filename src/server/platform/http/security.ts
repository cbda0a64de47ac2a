import type { ServerResponse } from 'node:http'
import type { Context } from 'hono'
import { API_BASE } from '../../../contract/endpoint.ts'
import { forwardedHttps } from './client.ts'

export type SecurityOptions = {
  /** 'sha256-…' sources of the inline scripts one page carries (a server-rendered page's state) */
  scriptHashes?: readonly string[]
  /** TRUST_PROXY: how many proxies' X-Forwarded-Proto to believe (client.ts). */
  trustProxy?: number
  /** PUBLIC_BASE_URL: a shop whose public address is https sends HSTS on every answer. */
  publicBaseUrl?: string | undefined
}

/**
 * HSTS whenever the shop's public address (PUBLIC_BASE_URL) is https, and otherwise once a browser
 * reached us over HTTPS, which the server only knows from a proxy it trusts (it never terminates TLS
 * itself): a proxy that forgets X-Forwarded-Proto must not drop it. Two years, as browsers'
 * preload lists ask.
 */
export const HSTS = 'max-age=63072000; includeSubDomains'

/** The policy of the API's answers: JSON and files, which load nothing and are framed by no one. */
export const API_CSP = "default-src 'none'; frame-ancestors 'none'"
const API_PREFIX = `${API_BASE}/`

// The Content-Security-Policy allows what the shop really loads: its own files, Stripe.js and its
// frames (card form), images from blob:/data: (photo previews, map sprites), and maplibre's blob:
// worker. The map's tiles and glyphs come from the shop itself (src/server/map), whatever MAP_TILES
// names. No inline script but those a page names
// by their hash: a server-rendered page's hydration state (src/server/platform/ssr.ts);
// never 'unsafe-inline' for scripts.
export function contentSecurityPolicy({ scriptHashes = [] }: SecurityOptions): string {
  return [
    "default-src 'self'",
    ["script-src 'self' https://js.stripe.com", ...scriptHashes].join(' '),
    "style-src 'self' 'unsafe-inline'",
    `img-src 'self' data: blob: https://*.stripe.com`,
    "font-src 'self' data:",
    `connect-src 'self' https://api.stripe.com`,
    'frame-src https://js.stripe.com https://hooks.stripe.com',
    "worker-src 'self' blob:",
    "manifest-src 'self'",
    "media-src 'self' blob:",
    "object-src 'none'",
    "base-uri 'self'",
    "form-action 'self'",
    "frame-ancestors 'none'",
  ].join('; ')
}

/** Where the security headers of one answer are put (app.ts's request middleware, after the route). */
export type SecurityHeaders = {
  /**
   * On Node's response, before its head is written: Node merges the route's own headers over these
   * when it writes the head, so a route that set its own (e.g. a sandboxed upload's policy) keeps it,
   * and the answer's Headers object is neither made nor searched for them.
   */
  onNode(c: Context, outgoing: ServerResponse): void
  /** On a Response's Headers (an answer made in process, app.request), a route's own kept. */
  onHeaders(c: Context, headers: Headers): void
}

/**
 * Security headers on every response; a route that set its own (e.g. a sandboxed upload) keeps it.
 * Made once per configuration: the policy and the fixed headers are the same for every answer; only
 * HSTS depends on the request (a trusted proxy's X-Forwarded-Proto).
 */
export function securityHeaders(options: SecurityOptions): SecurityHeaders {
  const csp = contentSecurityPolicy(options)
  const trustProxy = options.trustProxy ?? 0
  const alwaysHttps = options.publicBaseUrl?.startsWith('https:') ?? false
  const common: readonly (readonly [string, string])[] = [
    ['X-Content-Type-Options', 'nosniff'],
    ['Referrer-Policy', 'strict-origin-when-cross-origin'],
    ['X-Frame-Options', 'DENY'],
  ]
  const page: readonly (readonly [string, string])[] = [
    ['Content-Security-Policy', csp],
    ...common,
    ['Cross-Origin-Opener-Policy', 'same-origin'],
    ['Permissions-Policy', 'camera=(self), geolocation=(self), microphone=()'],
  ]
  // An API answer is data, never a document a browser renders (nosniff keeps it so): its policy
  // allows nothing at all, and the document-only headers (opener, permissions) would say nothing.
  // The app's policy, about 600 bytes, is on every page; on every API answer it was most of the head.
  const api: readonly (readonly [string, string])[] = [
    ['Content-Security-Policy', API_CSP],
    ...common,
  ]
  const fixedFor = (c: Context) => (c.req.path.startsWith(API_PREFIX) ? api : page)
  const hsts = (c: Context) => alwaysHttps || (trustProxy > 0 && forwardedHttps(c, trustProxy))
  return {
    onNode(c, outgoing) {
      if (hsts(c)) outgoing.setHeader('Strict-Transport-Security', HSTS)
      for (const [name, value] of fixedFor(c)) outgoing.setHeader(name, value)
    },
    onHeaders(c, h) {
      if (hsts(c)) h.set('Strict-Transport-Security', HSTS)
      for (const [name, value] of fixedFor(c)) if (!h.has(name)) h.set(name, value)
    },
  }
}
