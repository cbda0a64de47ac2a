import type * as v from 'valibot'
import type { BadInputCode, ProblemCode } from './problems'

// An endpoint of /api/v1 as data: method, path, and the schemas of what goes in and comes out
// (docs/api-v1.md). The server registers its handlers from these (src/server/platform/http.ts), the
// OpenAPI document is generated from them, and the app, the service worker and the tests build their
// URLs with `pathOf` and parse the answers with `response`. One definition, so a route cannot be
// missing from the document or called at a path the server does not serve.

export const API_BASE = '/api/v1'

export type Method = 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE'

/**
 * Who may call: anyone, a billboard's player (its token), an advertiser (a bearer access token), or
 * an operator of at least this role.
 */
export type Access = 'public' | 'player' | 'advertiser' | 'reviewer' | 'admin'

export type Endpoint = {
  /** A stable name: the OpenAPI operationId, and how tests and logs refer to the endpoint. */
  readonly name: string
  readonly method: Method
  /** Under API_BASE, with `{param}` for a whole path segment: '/spotlight/events/{slug}'. */
  readonly path: string
  readonly summary: string
  readonly access?: Access
  /** The query string (values arrive as strings; a repeated key is a list). */
  readonly query?: v.GenericSchema
  /** A JSON body, or 'multipart' for uploads (the handler reads the stream itself). */
  readonly body?: v.GenericSchema | 'multipart'
  /**
   * Callable from any origin's page without credentials (a player's web view posting with the token
   * in the query): the router answers the CORS preflight (OPTIONS) and allows any origin to read.
   */
  readonly cors?: boolean
  /** A body that is not JSON, by its media types (the handler reads and checks it itself). */
  readonly rawBody?: readonly string[]
  /** Request headers the endpoint reads (documented; a handler checks them itself). */
  readonly headers?: readonly { name: string; required: boolean; description: string }[]
  /** The JSON answer; absent with `file` (a file answer) or with status 204. */
  readonly response?: v.GenericSchema
  /** A file answer instead of JSON: its media types. */
  readonly file?: readonly string[]
  /** The success status; default 200. */
  readonly status?: 200 | 201 | 202 | 204
  /**
   * The problems a client should expect besides bad input (400, always possible), by code: the
   * OpenAPI document lists each under its status with its text (src/contract/problems.ts). A code
   * this endpoint answers with another status than the catalogue's comes with it: ['promo_invalid', 422].
   */
  readonly errors?: readonly (ProblemCode | readonly [ProblemCode, number])[]
  /** Statuses answered without a problem (a range past a file's end: 416), with what they mean. */
  readonly statuses?: Readonly<Partial<Record<number, string>>>
}

/** The problem codes an endpoint declares in `errors` (with or without a status of their own). */
export type DeclaredCodeOf<E extends Endpoint> = E['errors'] extends readonly (infer Entry)[]
  ? Entry extends readonly [infer Code extends ProblemCode, number]
    ? Code
    : Extract<Entry, ProblemCode>
  : never

/** The codes an endpoint declares in `errors`, without the statuses some come with. */
export const declaredCodes = (e: Endpoint): ProblemCode[] =>
  (e.errors ?? []).map((entry) => (typeof entry === 'string' ? entry : entry[0]))

/**
 * What the platform may answer on an endpoint whatever it declares, besides bad input: the size
 * limit of a JSON body (the server's json.ts), for an endpoint that takes one.
 */
export const platformCodes = (e: Endpoint): ProblemCode[] =>
  e.body && e.body !== 'multipart' && !declaredCodes(e).includes('body_too_large')
    ? ['body_too_large']
    : []

/** The codes a handler of this endpoint may refuse with: its declared ones, and bad input (400). */
export type RefusableCodeOf<E extends Endpoint> = DeclaredCodeOf<E> | BadInputCode

/** Declares an endpoint, keeping its literal types (path, method) for `pathOf` and the server. */
/* @__NO_SIDE_EFFECTS__ */
export const endpoint = <const E extends Endpoint>(e: E): E => e

/** The names of the `{param}` segments of a path: '/a/{x}/b/{y}' → 'x' | 'y'. */
export type PathParamNames<P extends string> = P extends `${string}{${infer Name}}${infer Rest}`
  ? Name | PathParamNames<Rest>
  : never

export type PathParams<E extends Endpoint> = [PathParamNames<E['path']>] extends [never]
  ? Record<string, never>
  : Record<PathParamNames<E['path']>, string | number>

/** The JSON answer's type of an endpoint. */
export type ResponseOf<E extends Endpoint> = E['response'] extends v.GenericSchema
  ? v.InferOutput<E['response']>
  : never
/** The body a client sends (before the schema's transforms). */
export type BodyInputOf<E extends Endpoint> = E['body'] extends v.GenericSchema
  ? v.InferInput<E['body']>
  : never
/** The body a handler receives (after the schema's transforms). */
export type BodyOf<E extends Endpoint> = E['body'] extends v.GenericSchema
  ? v.InferOutput<E['body']>
  : never
export type QueryInputOf<E extends Endpoint> = E['query'] extends v.GenericSchema
  ? v.InferInput<E['query']>
  : never
export type QueryOf<E extends Endpoint> = E['query'] extends v.GenericSchema
  ? v.InferOutput<E['query']>
  : never

export type QueryValue = string | number | boolean | null | undefined | readonly (string | number)[]

const PARAM = /\{(\w+)\}/g

/** The names of the `{param}` segments, in order. */
export function pathParamNames(path: string): string[] {
  return [...path.matchAll(PARAM)].map((m) => m[1] as string)
}

/**
 * The absolute path of a call (API_BASE included), with the params filled in, encoded, and the query
 * appended (a list repeats its key; null and undefined are left out).
 */
export function pathOf<E extends Endpoint>(
  e: E,
  ...args: [PathParamNames<E['path']>] extends [never]
    ? [params?: Record<string, never>, query?: Record<string, QueryValue>]
    : [params: PathParams<E>, query?: Record<string, QueryValue>]
): string {
  const [params, query] = args as [
    Record<string, string | number> | undefined,
    Record<string, QueryValue> | undefined,
  ]
  const path = e.path.replace(PARAM, (_, name: string) => {
    const value = params?.[name]
    if (value === undefined) throw new Error(`${e.name}: the path parameter ${name} is missing`)
    return encodeURIComponent(String(value))
  })
  const search = new URLSearchParams()
  for (const [key, value] of Object.entries(query ?? {})) {
    if (value === null || value === undefined) continue
    if (Array.isArray(value)) for (const item of value) search.append(key, String(item))
    else search.append(key, String(value))
  }
  const qs = search.toString()
  return `${API_BASE}${path}${qs ? `?${qs}` : ''}`
}

/** The path in the router's syntax: '/events/{slug}' → '/events/:slug'. */
export const routerPath = (path: string): string => path.replace(PARAM, ':$1')

/** Whether a concrete path (without API_BASE) is one of this endpoint's. */
export function matchesPath(e: Endpoint, path: string): boolean {
  const pattern = e.path
    .split(PARAM)
    .map((part, i) => (i % 2 === 1 ? '[^/]+' : part.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')))
    .join('')
  return new RegExp(`^${pattern}$`).test(path)
}
