import * as v from 'valibot'
import { type ProblemData, problemOfIssueMessage } from '../domain/problems'
import { englishOf, isProblemCode, PROBLEMS } from './problems'

// How a failed parse becomes the problems of a 400 (api-v1: bad input is a 400 that says what is
// wrong). A schema's message names a code of the catalogue (common.ts `issue`, the domain's codes);
// a code whose sentence is about a field (field_required) gets the issue's dot path as its `field`;
// a spec sentence names its field itself (email_invalid) and is kept whole. An issue of valibot's
// own words (no message given) keeps them as the detail of field_invalid.

const isAboutAField = (code: string) => isProblemCode(code) && PROBLEMS[code].en.includes('{field}')

/** Where an issue is, as its problem's `field` names it: the dot path ('order.slots.0'). */
export type IssuePath = (issue: v.BaseIssue<unknown>) => string

const dotPath: IssuePath = (issue) => v.getDotPath(issue) ?? ''

function problemOf(issue: v.BaseIssue<unknown>, pathOf: IssuePath): ProblemData {
  const field = pathOf(issue)
  const named = problemOfIssueMessage(issue.message)
  if (named && isProblemCode(named.code) && !isAboutAField(named.code)) return named
  if (issue.type === 'strict_object' && issue.expected === 'never') {
    return { code: 'field_not_allowed', params: { field } }
  }
  if (issue.kind === 'schema' && issue.input === undefined) {
    return { code: 'field_required', params: { field } }
  }
  if (named && isProblemCode(named.code))
    return { code: named.code, params: { ...named.params, field } }
  return field
    ? { code: 'field_invalid', params: { field, detail: issue.message } }
    : { code: 'invalid_input', params: { detail: issue.message } }
}

const keyOf = (p: ProblemData) => JSON.stringify([p.code, p.params ?? {}])

/** The problems of valibot issues, in order, each once (each at its dot path, unless told). */
export function issuesToProblems(
  issues: readonly v.BaseIssue<unknown>[],
  pathOf: IssuePath = dotPath,
): ProblemData[] {
  const seen = new Set<string>()
  const problems: ProblemData[] = []
  for (const issue of issues) {
    const p = problemOf(issue, pathOf)
    const key = keyOf(p)
    if (seen.has(key)) continue
    seen.add(key)
    problems.push(p)
  }
  return problems
}

/** Validates input against a schema: the output, or the problems ready for a 400 body. */
export function parseWithProblems<TSchema extends v.GenericSchema>(
  schema: TSchema,
  input: unknown,
): { success: true; output: v.InferOutput<TSchema> } | { success: false; problems: ProblemData[] } {
  const result = v.safeParse(schema, input)
  return result.success
    ? { success: true, output: result.output }
    : { success: false, problems: issuesToProblems(result.issues) }
}

/**
 * @deprecated for the modules not yet converted (content generation, order placement): the English
 * of parseWithProblems, with the problems themselves kept on the list (server/platform/http/errors.ts
 * `inputProblems` answers them). Goes with those modules' conversion.
 */
export function parseWithErrors<TSchema extends v.GenericSchema>(
  schema: TSchema,
  input: unknown,
):
  | { success: true; output: v.InferOutput<TSchema> }
  | { success: false; errors: string[] & { problems: ProblemData[] } } {
  const parsed = parseWithProblems(schema, input)
  if (parsed.success) return parsed
  const errors = Object.assign(parsed.problems.map(englishOf), { problems: parsed.problems })
  return { success: false, errors }
}
