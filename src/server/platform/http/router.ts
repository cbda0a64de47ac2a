import { type Context, Hono, type MiddlewareHandler } from 'hono'
import type { ContentfulStatusCode } from 'hono/utils/http-status'
import {
  type BodyOf,
  declaredCodes,
  type Endpoint,
  type PathParamNames,
  type QueryOf,
  type RefusableCodeOf,
  type ResponseOf,
  routerPath,
} from '../../../contract/endpoint.ts'
import type { Problem, ProblemCode } from '../../../contract/problems.ts'
import { type KeptRefusal, keptRefusal, type Refusal, refuse } from './errors.ts'
import { jsonAnswer, readBody, readQuery } from './json.ts'
import { refusedBy } from './refusing.ts'

// The server's side of the contract (src/contract): a handler is registered for an endpoint, not for a
// path written by hand. The router parses the query and the JSON body with the endpoint's schemas (a
// 400 with every problem otherwise) and answers the handler's value as JSON with the endpoint's
// status. A handler answers a Result: its value (a service's Result is returned as it is), or the
// problems it refuses with, answered with their status (errors.ts). A handler that needs the raw
// request (uploads, files, hand-serialised hot answers) answers a Response of its own.

export type HandlerInput<E extends Endpoint> = {
  c: Context
  params: Record<PathParamNames<E['path']>, string>
  query: QueryOf<E>
  body: BodyOf<E>
}

type Answer<E extends Endpoint> = E['status'] extends 204 ? null : ResponseOf<E>

/**
 * What a handler refuses with: a problem, problems with a status or body fields of their own, or a
 * declared code answered with the problems a background job kept (errors.ts KeptRefusal).
 */
export type Refused<C extends ProblemCode = ProblemCode> = Problem<C> | Refusal<C> | KeptRefusal<C>

/**
 * What a handler answers: its endpoint's answer (or a Response of its own: a file, a stream, a
 * redirect), or what it refuses with. A service's Result is returned as it is.
 */
export type Outcome<E extends Endpoint, C extends ProblemCode = ProblemCode> =
  | { readonly ok: true; readonly value: Answer<E> | Response }
  | { readonly ok: false; readonly error: Refused<C> }

export type Handler<E extends Endpoint, C extends ProblemCode = ProblemCode> = (
  input: HandlerInput<E>,
) => Promise<Outcome<E, C>> | Outcome<E, C>

/**
 * A handler's refusals are typed by its endpoint: a code outside the endpoint's `errors` (bad input
 * aside) makes the handler fail the typecheck, naming the code. Services name the codes each call
 * can refuse with, so a rule's problem passed on is checked too, and no handler is let through:
 * a refusal of any code would fail here too. Problems that are data of any code (a failed job's
 * reasons, a failed upload's) are not refusals: answers carry them, or a KeptRefusal under its
 * declared code.
 */
export type DeclaredOnly<E extends Endpoint, C extends ProblemCode> = [
  Exclude<C, RefusableCodeOf<E>>,
] extends [never]
  ? unknown
  : { readonly undeclaredProblemCodes: Exclude<C, RefusableCodeOf<E>> }

/** The refusal of an outcome, as errors.ts answers it. */
const refusalOf = (refused: Refused): Refusal =>
  'problems' in refused
    ? refused
    : 'kept' in refused
      ? keptRefusal(refused)
      : { problems: [refused] }

export type ApiRouter = {
  /** Registers the handler of an endpoint (with middleware before it, e.g. an access check). */
  handle<E extends Endpoint, C extends ProblemCode = never>(
    e: E,
    handler: Handler<E, C> & DeclaredOnly<E, C>,
    ...middleware: MiddlewareHandler[]
  ): void
  /** The endpoints registered so far, in order. */
  registered(): readonly Endpoint[]
  /** The Hono app to mount at API_BASE. */
  readonly hono: Hono
}

export function createApiRouter(): ApiRouter {
  const hono = new Hono()
  const registered: Endpoint[] = []
  return {
    hono,
    registered: () => registered,
    handle(e, handler, ...middleware) {
      if (registered.some((r) => r.method === e.method && r.path === e.path)) {
        throw new Error(`${e.method} ${e.path} is registered twice`)
      }
      // what a middleware answers in the handler's place is the endpoint's to declare (a 429 the
      // OpenAPI would not list is a surprise to its clients)
      const declared = new Set<string>(declaredCodes(e))
      for (const code of middleware.flatMap(refusedBy)) {
        if (!declared.has(code)) {
          throw new Error(
            `${e.name} is guarded by middleware answering ${code}: declare it in its errors`,
          )
        }
      }
      registered.push(e)
      // A file answer is asked for with HEAD too (players probe a clip's size before they seek).
      const methods = e.method === 'GET' && e.file ? ['GET', 'HEAD'] : [e.method]
      const on = hono.on.bind(hono) as (
        methods: string[],
        path: string,
        ...handlers: MiddlewareHandler[]
      ) => unknown
      if (e.cors) {
        hono.options(routerPath(e.path), (c) =>
          c.body(null, 204, {
            'Access-Control-Allow-Origin': '*',
            'Access-Control-Allow-Methods': `${e.method}, OPTIONS`,
            'Access-Control-Allow-Headers': 'Content-Type',
            'Access-Control-Max-Age': '86400',
          }),
        )
      }
      const chain: MiddlewareHandler[] = e.cors
        ? [
            async (c, next) => {
              await next()
              c.res.headers.set('Access-Control-Allow-Origin', '*')
            },
            ...middleware,
          ]
        : middleware
      on(methods, routerPath(e.path), ...chain, async (c) => {
        const query = e.query ? readQuery(c, e.query) : undefined
        const body = e.body && e.body !== 'multipart' ? await readBody(c, e.body) : undefined
        const outcome = await handler({
          c,
          params: c.req.param() as HandlerInput<typeof e>['params'],
          query: query as QueryOf<typeof e>,
          body: body as BodyOf<typeof e>,
        })
        if (!outcome.ok) return refuse(refusalOf(outcome.error))
        const result = outcome.value
        if (result instanceof Response) return result
        if (e.status === 204) return c.body(null, 204)
        return jsonAnswer(c, JSON.stringify(result), (e.status ?? 200) as ContentfulStatusCode)
      })
    },
  }
}
