import type { Context } from 'hono'
import type { ContentfulStatusCode } from 'hono/utils/http-status'
import {
  ERROR_CODES,
  type ErrorCode,
  isErrorCode,
  templateValues,
} from '../../../contract/error-codes.ts'
import { messages } from '../../../domain/messages.ts'

// api-v1: every non-2xx response has the body {errors: string[]}; `codes`, parallel to
// `errors`: a stable name per error ('slots_taken', 'event_not_found') that a client can translate or
// act on, while `errors` keeps the spec's exact English text. Services return typed errors with these
// codes; the routes give each its status and text (never the other way round).

/** One thing wrong, as the client receives it: a code of the registry and its text. */
export type Problem = { readonly code: ErrorCode; readonly message: string }

export const problem = (code: ErrorCode, message: string): Problem => ({ code, message })

/** The error body of api-v1: the texts, and their codes in the same order. */
export function errorBody(problems: readonly Problem[]): { errors: string[]; codes: string[] } {
  return { errors: problems.map((p) => p.message), codes: problems.map((p) => p.code) }
}

export function errorResponse(
  c: Context,
  status: ContentfulStatusCode,
  problems: Problem | readonly Problem[],
  extra: Record<string, unknown> = {},
): Response {
  const list = Array.isArray(problems) ? problems : [problems as Problem]
  return c.json({ ...errorBody(list), ...extra }, status)
}

/** A failure a handler throws to answer with a status and problems (never a 500). */
export class HttpError extends Error {
  constructor(
    readonly status: ContentfulStatusCode,
    readonly problems: readonly Problem[],
    readonly extra: Record<string, unknown> = {},
  ) {
    super(problems.map((p) => p.message).join('; '))
    this.name = 'HttpError'
  }
}

export const fail = (status: ContentfulStatusCode, ...problems: Problem[]): never => {
  throw new HttpError(status, problems)
}

/** What a route answers for a service's error: a status, the problems, and extra body fields. */
export type Refusal = {
  status: ContentfulStatusCode
  problems: readonly Problem[]
  extra?: Record<string, unknown>
}

export const refuse = (refusal: Refusal): never => {
  throw new HttpError(refusal.status, refusal.problems, refusal.extra)
}

// The code of one of the spec's own sentences is its name in src/domain/messages.ts, in snake case
// (messages.emailInvalid → 'email_invalid'), so a schema's spec message keeps a code of its own; only
// the codes of the registry (src/contract/error-codes.ts) are sent.
const SPEC_CODES = new Map<string, ErrorCode>()
for (const [key, text] of Object.entries(messages)) {
  const code = key.replace(/[A-Z]/g, (c) => `_${c.toLowerCase()}`)
  if (typeof text === 'string' && isErrorCode(code)) SPEC_CODES.set(text, code)
}

// Sentences of a schema that carry a value (the agreement's label, the password's least length),
// read after the field's path when the text has one ('password: The password must be…').
const TEMPLATED_INPUT_CODES: readonly ErrorCode[] = ['agreement_required', 'password_weak']

const codeOfInput = (message: string): ErrorCode => {
  const sentence = message.replace(/^[\w.]+: /, '')
  return (
    SPEC_CODES.get(message) ??
    TEMPLATED_INPUT_CODES.find((code) => templateValues(ERROR_CODES[code], sentence) !== null) ??
    'invalid_input'
  )
}

/** Problems of a failed parse (contract's issuesToErrors): a spec message's code, else invalid_input. */
export const inputProblems = (errors: readonly string[]): Problem[] =>
  errors.map((message) => problem(codeOfInput(message), message))
