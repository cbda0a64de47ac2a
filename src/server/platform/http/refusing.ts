import type { MiddlewareHandler } from 'hono'
import type { ProblemCode } from '../../../contract/problems.ts'

/**
 * Middleware that may answer in the handler's place (a rate limit's 429), with the codes it answers:
 * the router refuses to register it in front of an endpoint that does not declare them, so the
 * OpenAPI document lists every code a client can meet.
 */
export type RefusingMiddleware = MiddlewareHandler & { readonly refuses: readonly ProblemCode[] }

export const refusing = (
  refuses: readonly ProblemCode[],
  middleware: MiddlewareHandler,
): RefusingMiddleware => Object.assign(middleware, { refuses })

/** The codes a middleware says it may answer with (none for a plain one). */
export const refusedBy = (middleware: MiddlewareHandler): readonly ProblemCode[] =>
  'refuses' in middleware ? (middleware as RefusingMiddleware).refuses : []
