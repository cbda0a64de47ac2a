import * as v from 'valibot'
import { ErrorBodySchema } from '../../contract/common'

// spec §7: one versioned API base for every call.
export const API_BASE = '/api/v1'

/** spec §3 "Normalized error": a message plus a status code, with every message of the body. */
export class ApiError extends Error {
  readonly statusCode: number
  readonly errors: string[]
  constructor(statusCode: number, errors: string[]) {
    super(errors[0] ?? `Request failed with status ${statusCode}`)
    this.name = 'ApiError'
    this.statusCode = statusCode
    this.errors = errors
  }
}

// spec §7: these two token messages send the browser to /account.
const SESSION_EXPIRED = new Set([
  'Unable to parse a token from this string',
  'Failing JWT token read/validate - token expired',
])

type RequestOptions = {
  method?: 'GET' | 'POST'
  body?: unknown
  formData?: FormData
  headers?: Record<string, string>
  signal?: AbortSignal
}

function url(path: string): string {
  return path.startsWith('/api/') ? path : `${API_BASE}${path}`
}

/** Calls the API and validates the answer with the domain's schema (conventions, habit 2). */
export async function apiRequest<TSchema extends v.GenericSchema>(
  path: string,
  schema: TSchema,
  options: RequestOptions = {},
): Promise<v.InferOutput<TSchema>> {
  const headers: Record<string, string> = { accept: 'application/json', ...options.headers }
  let body: BodyInit | undefined
  if (options.formData) body = options.formData
  else if (options.body !== undefined) {
    headers['content-type'] = 'application/json'
    body = JSON.stringify(options.body)
  }
  const response = await fetch(url(path), {
    method: options.method ?? (body ? 'POST' : 'GET'),
    headers,
    body,
    signal: options.signal,
  })
  const payload: unknown = await response.json().catch(() => null)
  if (!response.ok) {
    const parsed = v.safeParse(ErrorBodySchema, payload)
    const errors = parsed.success ? parsed.output.errors : []
    if ([400, 401, 404, 500].includes(response.status) && SESSION_EXPIRED.has(errors[0] ?? '')) {
      window.location.assign('/account')
    }
    throw new ApiError(response.status, errors)
  }
  const parsed = v.safeParse(schema, payload)
  if (!parsed.success) {
    throw new ApiError(502, [`Unexpected answer from ${path}: ${parsed.issues[0]?.message ?? ''}`])
  }
  return parsed.output
}

export const apiGet = <TSchema extends v.GenericSchema>(
  path: string,
  schema: TSchema,
  signal?: AbortSignal,
) => apiRequest(path, schema, { signal })

export const apiPost = <TSchema extends v.GenericSchema>(
  path: string,
  body: unknown,
  schema: TSchema,
  headers?: Record<string, string>,
) => apiRequest(path, schema, { method: 'POST', body, headers })

/** spec §8: the status code of an error is statusCode, status or response status, else 500. */
export function statusCodeOf(error: unknown): number {
  if (error instanceof ApiError) return error.statusCode
  if (typeof error === 'object' && error !== null) {
    const e = error as { statusCode?: unknown; status?: unknown; response?: { status?: unknown } }
    for (const candidate of [e.statusCode, e.status, e.response?.status]) {
      if (typeof candidate === 'number') return candidate
    }
  }
  return 500
}
