import * as v from 'valibot'
import { ErrorBodySchema } from '../../contract/common'
import {
  API_BASE,
  type BodyInputOf,
  type Endpoint,
  type Method,
  type PathParamNames,
  type PathParams,
  pathOf,
  type QueryInputOf,
  type QueryValue,
  type ResponseOf,
} from '../../contract/endpoint'

/**
 * spec §3 "Normalized error": a message plus a status code, with every message of the body and its
 * code (the app translates by code, src/app/lib/error-messages.ts).
 */
export class ApiError extends Error {
  readonly statusCode: number
  readonly errors: string[]
  readonly codes: string[]
  constructor(statusCode: number, errors: string[], codes: string[] = []) {
    super(errors[0] ?? `Request failed with status ${statusCode}`)
    this.name = 'ApiError'
    this.statusCode = statusCode
    this.errors = errors
    this.codes = codes
  }
}

// spec §7: these two token messages send the browser to /account.
const SESSION_EXPIRED = new Set([
  'Unable to parse a token from this string',
  'Failing JWT token read/validate - token expired',
])

type RequestOptions = {
  method?: Method
  body?: unknown
  formData?: FormData
  headers?: Record<string, string>
  signal?: AbortSignal
}

function url(path: string): string {
  return path.startsWith('/api/') ? path : `${API_BASE}${path}`
}

/** What answers the app's API calls: fetch in the browser. */
type Transport = (
  path: string,
  init: { method: string; headers: Record<string, string>; body?: BodyInit; signal?: AbortSignal },
) => Promise<{ readonly status: number; json(): Promise<unknown> }>

let transport: Transport = (path, init) => fetch(path, init)

/**
 * On the server the route loaders reach /api/v1 in process (src/app/entry-server.tsx sets
 * this once, for every request alike: it is the same server answering).
 */
export function setApiTransport(next: Transport): void {
  transport = next
}

/**
 * Fetches a path of the API and validates the answer with the schema (conventions, habit 2). The
 * calls of the contract go through `callApi`; this is for a URL the server handed out (a job's link).
 */
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
  const response = await transport(url(path), {
    method: options.method ?? (body ? 'POST' : 'GET'),
    headers,
    body,
    signal: options.signal,
  })
  const payload: unknown = await response.json().catch(() => null)
  if (response.status < 200 || response.status > 299) {
    const parsed = v.safeParse(ErrorBodySchema, payload)
    const errors = parsed.success ? parsed.output.errors : []
    const codes = parsed.success ? (parsed.output.codes ?? []) : []
    if (
      !import.meta.env.SSR &&
      [400, 401, 404, 500].includes(response.status) &&
      SESSION_EXPIRED.has(errors[0] ?? '')
    ) {
      window.location.assign('/account')
    }
    throw new ApiError(response.status, errors, codes)
  }
  const parsed = v.safeParse(schema, payload)
  if (!parsed.success) {
    throw new ApiError(502, [`Unexpected answer from ${path}: ${parsed.issues[0]?.message ?? ''}`])
  }
  return parsed.output
}

type CallOptions<E extends Endpoint> = ([PathParamNames<E['path']>] extends [never]
  ? { params?: undefined }
  : { params: PathParams<E> }) & {
  /** the query string, by the names of the endpoint's query schema */
  query?: { [K in keyof QueryInputOf<E>]?: QueryValue }
  body?: BodyInputOf<E>
  /** a multipart body (uploads) */
  formData?: FormData
  headers?: Record<string, string>
  signal?: AbortSignal
}

/**
 * Calls an endpoint of the contract: its method, its path (`pathOf`), and its answer parsed with its
 * own response schema, so a call cannot go to a path the server does not serve or read the answer of
 * another.
 */
export function callApi<E extends Endpoint & { readonly response: v.GenericSchema }>(
  endpoint: E,
  options: CallOptions<E>,
): Promise<ResponseOf<E>> {
  const { params, query, ...rest } = options
  const path = (pathOf as (e: Endpoint, params?: object, query?: object) => string)(
    endpoint,
    params,
    query,
  )
  return apiRequest(path, endpoint.response, { ...rest, method: endpoint.method }) as Promise<
    ResponseOf<E>
  >
}

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
