import * as v from 'valibot'
import { ErrorBodySchema, problemsOf } from '../../contract/common'
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
import { issueMessage, type ProblemData } from '../../domain/problems'

/**
 * spec §3 "Normalized error": a message plus a status code, with every problem of the body: its
 * code and params, which the app translates (src/app/lib/problem-text.ts), and its English as sent.
 */
export class ApiError extends Error {
  readonly statusCode: number
  readonly problems: ProblemData[]
  /** the English the server sent, one per problem (the text when a code has no translation) */
  readonly errors: string[]
  constructor(statusCode: number, problems: ProblemData[], errors: string[] = []) {
    // the first problem, as a schema's message is (its code and params): what an error page
    // rendered on the server hands the browser, which translates it (features/shell/error-page.tsx)
    const first = problems[0]
    super(
      first ? issueMessage(first.code, first.params) : `Request failed with status ${statusCode}`,
    )
    this.name = 'ApiError'
    this.statusCode = statusCode
    this.problems = problems
    this.errors = errors
  }
}

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
    const body = parsed.success ? parsed.output : { errors: [] }
    throw new ApiError(response.status, problemsOf(body), body.errors)
  }
  const parsed = v.safeParse(schema, payload)
  if (!parsed.success) {
    const detail = parsed.issues[0]?.message ?? ''
    throw new ApiError(502, [{ code: 'answer_unexpected', params: { path, detail } }])
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
