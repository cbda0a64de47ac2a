import { getConnInfo } from '@hono/node-server/conninfo'
import type { Context } from 'hono'

// Who is asking, and over what (9). Behind a load
// balancer the socket's address is the balancer's: the client's is in X-Forwarded-For, which each proxy
// extends with the address it received the request from. Only the last TRUST_PROXY entries were
// written by proxies we run; anything left of them a client may have made up. So the client is the
// entry TRUST_PROXY places from the right of [...X-Forwarded-For, socket]; with TRUST_PROXY=0 (the
// default) the header is ignored and the socket's address is the client.

function socketAddress(c: Context): string {
  try {
    return getConnInfo(c).remote.address ?? 'unknown'
  } catch {
    // app.request() in-process (the pre-render asks the API itself): no socket
    return 'unknown'
  }
}

/** The client's address, reading X-Forwarded-For only as far as `trustProxy` proxies wrote it. */
export function clientAddress(c: Context, trustProxy: number): string {
  const socket = socketAddress(c)
  if (trustProxy <= 0) return socket
  const forwarded = (c.req.header('x-forwarded-for') ?? '')
    .split(',')
    .map((entry) => entry.trim())
    .filter((entry) => entry !== '')
  const chain = [...forwarded, socket]
  return chain[Math.max(0, chain.length - 1 - trustProxy)] ?? socket
}

/** Whether the client reached the first trusted proxy over HTTPS (X-Forwarded-Proto of that proxy). */
export function forwardedHttps(c: Context, trustProxy: number): boolean {
  if (trustProxy <= 0) return false
  const protos = (c.req.header('x-forwarded-proto') ?? '')
    .split(',')
    .map((entry) => entry.trim().toLowerCase())
    .filter((entry) => entry !== '')
  // Each proxy appends the scheme it saw, like X-Forwarded-For: the outermost trusted one's is the
  // client's own.
  const proto = protos[Math.max(0, protos.length - trustProxy)]
  return proto === 'https'
}

const ALWAYS_ALLOWED = ['localhost', '127.0.0.1', '[::1]', '::1']

/** The host names a request may name when the server makes an address from it. */
export function allowedHosts(settings: {
  ALLOWED_HOSTS?: readonly string[] | undefined
  HOST?: string | undefined
}): ReadonlySet<string> {
  const hosts = [...ALWAYS_ALLOWED, ...(settings.ALLOWED_HOSTS ?? [])]
  const listening = settings.HOST?.toLowerCase()
  if (listening && listening !== '0.0.0.0' && listening !== '::') hosts.push(listening)
  return new Set(hosts)
}

/**
 * The origin the request came in on (scheme from a trusted proxy, Host header), when its host is one
 * the server is configured for; null otherwise, so that no request can choose another host.
 */
export function allowedRequestOrigin(
  c: Context,
  hosts: ReadonlySet<string>,
  trustProxy: number,
): string | null {
  let url: URL
  try {
    url = new URL(c.req.url)
  } catch {
    return null
  }
  if (!hosts.has(url.hostname.toLowerCase())) return null
  const scheme = forwardedHttps(c, trustProxy) ? 'https:' : url.protocol
  return `${scheme}//${url.host}`
}
