import type { Context } from 'hono'
import type { ContentfulStatusCode } from 'hono/utils/http-status'
import {
  type Problem as CatalogueProblem,
  englishOf,
  isProblemCode,
  type ProblemCode,
  problem,
  statusOf,
} from '../../../contract/problems.ts'
import type { ProblemData, ProblemParams } from '../../../domain/problems.ts'

// The HTTP edge of problems. api-v1: every non-2xx response has the body {errors: string[]}; beside
// it `codes` (a stable name per error: 'slots_taken') and `params` (the values of its sentence), in
// the same order. Services and rules name problems by code with their params; here, and only here,
// each becomes its English text (the catalogue's, src/contract/problems.ts) and its status (the
// catalogue's for the first problem, unless the route says otherwise).

export type { ProblemCode }

/** A problem of the catalogue with the params its sentence needs (a type error when one is missing). */
export { problem }

type Answered = CatalogueProblem

/** A problem as a route answers it. */
export type Problem = Answered

const textOf = (p: Answered) => englishOf(p)

/**
 * The error body of api-v1: the English texts, their codes and, when any has values, their params,
 * in the same order (`{}` for a problem without).
 */
export function errorBody(problems: readonly Answered[]): {
  errors: string[]
  codes: string[]
  params?: ProblemParams[]
} {
  const body = { errors: problems.map(textOf), codes: problems.map((p) => p.code) }
  const params = problems.map((p) => p.params ?? {})
  return params.some((values) => Object.keys(values).length > 0) ? { ...body, params } : body
}

/**
 * The wire form of problems an answer carries as data (an order's reasons, a failed upload's): their
 * English (`errors`), codes and params, as an error body has them (common.ts problemEntries).
 */
export const problemFields = (problems: readonly ProblemData[]) => errorBody(problems.map(known))

/**
 * An answer whose `problems` are data, in its wire form: `problems` written as `errors`, `codes` and
 * `params` (an order's status and summary).
 */
export function withProblemFields<T extends { problems: readonly ProblemData[] }>(
  answer: T,
): Omit<T, 'problems'> & ReturnType<typeof problemFields> {
  const { problems, ...rest } = answer
  return { ...rest, ...problemFields(problems) }
}

/**
 * An answer whose `problems` are data, with api-v1's single `error` text beside them (the content
 * answers: an upload's, a generation's, a job's): the English of the problems, or null.
 */
export function withFailureFields<T extends { problems: readonly ProblemData[] }>(
  answer: T,
): Omit<T, 'problems'> & { error: string | null; problems: Problem[] } {
  const { problems, ...rest } = answer
  const listed = problems.map(known)
  const error = listed.length > 0 ? listed.map((p) => englishOf(p)).join(' ') : null
  return { ...rest, error, problems: listed }
}

const statusOfAll = (problems: readonly Answered[]): ContentfulStatusCode =>
  statusOf(problems[0]?.code ?? 'unknown_error') as ContentfulStatusCode

/** What a route answers for a service's error: the problems, and extra body fields. */
export type Refusal<C extends ProblemCode = ProblemCode> = {
  problems: readonly CatalogueProblem<C>[]
  /** Only where api-v1 fixes another status than the code's (an order refused for its promo: 422). */
  status?: number
  extra?: Record<string, unknown>
}

/**
 * A refusal under one code the endpoint declares, whose answer lists problems kept as data: a failed
 * job's reasons, found by the job after its request was answered and stored with it, of any code.
 * They are not what the handler refuses with (it refuses with `code`, checked against the endpoint),
 * so they stay data, and the answer is the one it always was: status `code`'s (or `status`), the
 * body's `errors`/`codes`/`params` those reasons, or `code` alone when none was kept.
 */
export type KeptRefusal<C extends ProblemCode = ProblemCode> = {
  readonly code: C
  readonly kept: readonly ProblemData[]
  readonly status?: number
}

/** The refusal that answers a kept refusal (above): with the status of its declared code. */
export const keptRefusal = (refused: KeptRefusal): Refusal => ({
  problems: (refused.kept.length > 0 ? refused.kept : [{ code: refused.code }]).map(known),
  status: refused.status ?? statusOf(refused.code),
})

/** A failure a handler throws to answer with problems (never a 500). */
export class HttpError extends Error {
  readonly status: ContentfulStatusCode
  readonly problems: readonly Answered[]
  readonly extra: Record<string, unknown>
  constructor(refusal: Refusal) {
    super(refusal.problems.map(textOf).join('; '))
    this.name = 'HttpError'
    this.problems = refusal.problems
    this.status = (refusal.status ?? statusOfAll(refusal.problems)) as ContentfulStatusCode
    this.extra = refusal.extra ?? {}
  }
}

/** Answers the problems with the status of the first one's code. */
export function fail(...problems: Answered[]): never {
  throw new HttpError({ problems })
}

export function refuse(refusal: Refusal): never {
  throw new HttpError(refusal)
}

/** The answer of a refusal, for middleware that answers rather than throws. */
export function errorResponse(c: Context, refusal: Refusal): Response
/** @deprecated the status is the code's: give a Refusal */
export function errorResponse(
  c: Context,
  status: ContentfulStatusCode,
  problems: Answered | readonly Answered[],
): Response
export function errorResponse(
  c: Context,
  refusal: Refusal | ContentfulStatusCode,
  problems?: Answered | readonly Answered[],
): Response {
  const error = new HttpError(
    typeof refusal === 'number'
      ? { status: refusal, problems: Array.isArray(problems) ? problems : [problems as Answered] }
      : refusal,
  )
  return c.json({ ...errorBody(error.problems), ...error.extra }, error.status)
}

/**
 * @deprecated the problems of contract's parseWithErrors (order placement, not yet converted): use
 * parseWithProblems and answer its problems.
 */
export const inputProblems = (errors: { readonly problems: readonly ProblemData[] }): Problem[] =>
  errors.problems.map(known)

/** A problem read back (a stored one, a parse's): a code the catalogue does not know is an unknown error. */
export const known = (p: ProblemData): CatalogueProblem =>
  isProblemCode(p.code) ? (p as CatalogueProblem) : { code: 'unknown_error' }
