import { type Context, Hono, type MiddlewareHandler } from 'hono'
import type { ContentfulStatusCode } from 'hono/utils/http-status'
import {
  type BodyOf,
  type Endpoint,
  type PathParamNames,
  type QueryOf,
  type ResponseOf,
  routerPath,
} from '../../../contract/endpoint.ts'
import { jsonAnswer, readBody, readQuery } from './json.ts'

// The server's side of the contract (src/contract): a handler is registered for an endpoint, not for a
// path written by hand. The router parses the query and the JSON body with the endpoint's schemas (a
// 400 with every problem otherwise) and answers the handler's value as JSON with the endpoint's
// status. A handler that needs the raw request (uploads, files, hand-serialised hot answers) returns
// a Response of its own.

export type HandlerInput<E extends Endpoint> = {
  c: Context
  params: Record<PathParamNames<E['path']>, string>
  query: QueryOf<E>
  body: BodyOf<E>
}

type Answer<E extends Endpoint> = E['status'] extends 204 ? null : ResponseOf<E>

export type Handler<E extends Endpoint> = (
  input: HandlerInput<E>,
) => Promise<Answer<E> | Response> | Answer<E> | Response

export type ApiRouter = {
  /** Registers the handler of an endpoint (with middleware before it, e.g. an access check). */
  handle<E extends Endpoint>(e: E, handler: Handler<E>, ...middleware: MiddlewareHandler[]): void
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
        const result = await handler({
          c,
          params: c.req.param() as HandlerInput<typeof e>['params'],
          query: query as QueryOf<typeof e>,
          body: body as BodyOf<typeof e>,
        })
        if (result instanceof Response) return result
        if (e.status === 204) return c.body(null, 204)
        return jsonAnswer(c, JSON.stringify(result), (e.status ?? 200) as ContentfulStatusCode)
      })
    },
  }
}
