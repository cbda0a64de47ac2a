import { isIPv4, isIPv6 } from 'node:net'
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

/**
 * The eight 16-bit groups of an IPv6 address (zone and embedded IPv4 tail read), or null when it is
 * not one.
 */
function ipv6Groups(address: string): number[] | null {
  const bare = address.replace(/%.*$/, '')
  if (!isIPv6(bare)) return null
  const [head = '', tail] = bare.split('::')
  const part = (text: string): number[] =>
    text === ''
      ? []
      : text.split(':').flatMap((group) => {
          if (!group.includes('.')) return [Number.parseInt(group, 16)]
          const [a = 0, b = 0, c = 0, d = 0] = group.split('.').map(Number)
          return [(a << 8) | b, (c << 8) | d]
        })
  const first = part(head)
  const last = tail === undefined ? [] : part(tail)
  return [...first, ...Array(8 - first.length - last.length).fill(0), ...last]
}

/**
 * Who a rate limit counts: an IPv4 address as it is; an IPv6 address by its /64, since one
 * subscriber or server is handed a whole /64 (2^64 addresses) and would otherwise escape every limit
 * by changing the last half of its address. An IPv4 address written as IPv6 (::ffff:a.b.c.d) is the
 * IPv4 address.
 */
export function limitKey(address: string): string {
  const groups = ipv6Groups(address)
  if (!groups) return address
  const mapped = groups.slice(0, 5).every((g) => g === 0) && groups[5] === 0xffff
  if (mapped) {
    const [hi = 0, lo = 0] = groups.slice(6)
    const v4 = [hi >> 8, hi & 255, lo >> 8, lo & 255].join('.')
    if (isIPv4(v4)) return v4
  }
  return `${groups
    .slice(0, 4)
    .map((g) => g.toString(16))
    .join(':')}::/64`
}

/** The key the request's client is limited by (limitKey of its address). */
export function clientLimitKey(c: Context, trustProxy: number): string {
  return limitKey(clientAddress(c, trustProxy))
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
