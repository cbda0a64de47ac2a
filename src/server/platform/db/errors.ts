// PostgreSQL's error codes, as both drivers report them (on the error or, wrapped, on its cause).

/** The SQLSTATE of a database error (e.g. '23505'), or null for any other error. */
export function pgErrorCode(error: unknown): string | null {
  for (let e: unknown = error, depth = 0; e && depth < 4; depth++) {
    const code = (e as { code?: unknown }).code
    if (typeof code === 'string' && /^[0-9A-Z]{5}$/.test(code)) return code
    e = (e as { cause?: unknown }).cause
  }
  return null
}

/**
 * Why the database cannot serve a statement for a while, not through the statement's fault: it is
 * unreachable (class 08; 57P01-57P03, shutting down or starting), or out of a resource (class 53:
 * 53100 disk full, 53200 out of memory, 53300 too many connections). Null for any other error.
 */
export function databaseOutage(error: unknown): 'unreachable' | 'exhausted' | null {
  const code = pgErrorCode(error)
  if (!code) return null
  if (code.startsWith('08') || code.startsWith('57P0')) return 'unreachable'
  if (code.startsWith('53')) return 'exhausted'
  return null
}

/**
 * What node-postgres throws when it cannot talk to the server at all: a socket's error (the server
 * stopped, the network cut) or its pool's own words (no connection within the wait, a connection
 * that ended mid-statement). These carry no SQLSTATE, yet they are the same outage as a class 08
 * answer: the client gives them 08006 (connection_failure, lostConnection below), so the HTTP edge
 * answers them alike. Only errors of the database's client are looked at this way (a socket error
 * of the bucket or of Stripe is theirs).
 */
const SOCKET_CODES = new Set([
  'ECONNREFUSED',
  'ECONNRESET',
  'ECONNABORTED',
  'ETIMEDOUT',
  'EPIPE',
  'EHOSTUNREACH',
  'ENETUNREACH',
  'ENOTFOUND',
  'EAI_AGAIN',
])
const CONNECTION_WORDS =
  /^(Connection terminated|timeout exceeded when trying to connect|Client has encountered a connection error|Client was closed and is not queryable)/

/**
 * The error of a statement that could not reach PostgreSQL, as a class 08 error (the original as its
 * cause); any other error as it is.
 */
export function lostConnection(error: unknown): unknown {
  if (pgErrorCode(error)) return error
  const { code, message } = (error ?? {}) as { code?: unknown; message?: unknown }
  const socket = typeof code === 'string' && SOCKET_CODES.has(code)
  if (!socket && !(typeof message === 'string' && CONNECTION_WORDS.test(message))) return error
  return Object.assign(
    new Error(`PostgreSQL cannot be reached: ${String(message)}`, { cause: error }),
    {
      code: '08006',
    },
  )
}

/** The name of the unique constraint a statement broke, if that is why it failed. */
export function uniqueViolation(error: unknown): string | null {
  for (let e: unknown = error, depth = 0; e && depth < 4; depth++) {
    const { code, constraint } = e as { code?: unknown; constraint?: unknown }
    if (code === '23505') return typeof constraint === 'string' ? constraint : 'unknown'
    e = (e as { cause?: unknown }).cause
  }
  return null
}
