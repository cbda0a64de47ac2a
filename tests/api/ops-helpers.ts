import type { OperatorRole } from '../../src/domain/ops.ts'
import { type Client, client, type TestServer } from './helpers.ts'

// Operators in API tests: made the way `npm run operator -- add` makes them (the auth
// service), their password set through the one-time link's endpoint, signed in through
// POST /ops/session like the console. The client then sends the session cookie and the shop's own
// Origin with every call (the guard refuses a state change without it).

export const OPS_PASSWORD = 'correct horse battery staple'

let counter = 0

/** The cookie pair (name=value) of a Set-Cookie answer, or null. */
export function sessionCookieOf(headers: Headers): string | null {
  const set = headers.getSetCookie().find((c) => /^(__Host-)?shouts_ops=[^;]/.test(c))
  return set ? (set.split(';')[0] as string) : null
}

/** A client that sends these headers with every call (a cookie, an Origin). */
export function clientWith(baseUrl: string, headers: Record<string, string>): Client {
  const base = client(baseUrl)
  const call: Client['call'] = (method, path, body, more = {}) =>
    base.call(method, path, body, { ...headers, ...more })
  return {
    baseUrl,
    call,
    get: (path, more) => call('GET', path, undefined, more),
    post: (path, body, more) => call('POST', path, body, more),
  }
}

/** A new operator of this role, its one-time link's token (not used yet). */
export async function newOperator(
  server: TestServer,
  role: OperatorRole,
  email = `${role}-${process.pid}-${++counter}@shouts.example`,
): Promise<{ email: string; token: string }> {
  const added = await server.deps.auth.addOperator(email, role)
  if (!added.ok) throw new Error(`operator add: ${added.error.code}`)
  return { email, token: added.value.token }
}

export type SignedIn = { api: Client; email: string; cookie: string }

/** An operator of this role, password set from the link, signed in: its client. */
export async function signedInOperator(
  server: TestServer,
  role: OperatorRole,
  email?: string,
  /** the shop's origin the guard expects: the server's own, or its PUBLIC_BASE_URL when set */
  shopOrigin = server.url,
): Promise<SignedIn> {
  const origin = { origin: shopOrigin }
  const anonymous = clientWith(server.url, origin)
  const made = await newOperator(server, role, email)
  const set = await anonymous.post('/ops/set-password', {
    token: made.token,
    password: OPS_PASSWORD,
  })
  if (set.status !== 204) throw new Error(`set-password: ${set.status} ${JSON.stringify(set.body)}`)
  const signIn = await anonymous.post('/ops/session', {
    email: made.email,
    password: OPS_PASSWORD,
  })
  const cookie = sessionCookieOf(signIn.headers)
  if (signIn.status !== 204 || !cookie) throw new Error(`sign-in: ${signIn.status}`)
  return { api: clientWith(server.url, { ...origin, cookie }), email: made.email, cookie }
}
