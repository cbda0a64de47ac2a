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

/** The name of the unique constraint a statement broke, if that is why it failed. */
export function uniqueViolation(error: unknown): string | null {
  for (let e: unknown = error, depth = 0; e && depth < 4; depth++) {
    const { code, constraint } = e as { code?: unknown; constraint?: unknown }
    if (code === '23505') return typeof constraint === 'string' ? constraint : 'unknown'
    e = (e as { cause?: unknown }).cause
  }
  return null
}
