import type { Context } from 'hono'
import type { ContentfulStatusCode } from 'hono/utils/http-status'

// api-v1: every non-2xx response has the body {errors: string[]}.
export function errorResponse(c: Context, status: ContentfulStatusCode, errors: string | string[]) {
  return c.json({ errors: Array.isArray(errors) ? errors : [errors] }, status)
}

/** A failure a handler throws to answer with a status and messages (never a 500). */
export class HttpError extends Error {
  constructor(
    readonly status: ContentfulStatusCode,
    readonly errors: string[],
  ) {
    super(errors.join('; '))
    this.name = 'HttpError'
  }
}

export const fail = (status: ContentfulStatusCode, ...errors: string[]): never => {
  throw new HttpError(status, errors)
}
