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

// A union that refuses a value says only "Expected Object but received Object" (valibot keeps the
// issues of every option in one flat list). To say what was wrong, the union is found in the schema
// at the issue's path and the value tried against its options again: the option its discriminator
// names (a key that is a literal in every option, `kind`), else the one with the fewest issues, and
// that option's issues are the problems; a discriminator that names no option is refused with the
// values it may take.

type AnySchema = v.GenericSchema & {
  readonly wrapped?: AnySchema
  readonly entries?: Readonly<Record<string, AnySchema>>
  readonly item?: AnySchema
  readonly items?: readonly AnySchema[]
  readonly value?: AnySchema
  readonly options?: readonly AnySchema[]
  readonly literal?: unknown
}

const unwrapped = (schema: AnySchema): AnySchema => {
  let s = schema
  while (s.wrapped) s = s.wrapped
  return s
}

/** The schema at a path inside `root`, through wrappers, objects, arrays, tuples and records. */
function schemaAt(root: AnySchema, path: readonly { key: unknown }[]): AnySchema | null {
  let s: AnySchema | undefined = root
  for (const item of path) {
    if (!s) return null
    const at: AnySchema = unwrapped(s)
    const key = item.key
    if (at.entries && typeof key === 'string') s = at.entries[key]
    else if (at.items && typeof key === 'number') s = at.items[key]
    else if (at.item) s = at.item
    else if (at.value && at.type === 'record') s = at.value
    else return null
  }
  return s ? unwrapped(s) : null
}

const joined = (prefix: string, path: string) => [prefix, path].filter((p) => p !== '').join('.')

function unionProblems(union: AnySchema, input: unknown, at: string): ProblemData[] {
  const options = (union.options ?? []).map(unwrapped)
  const record = typeof input === 'object' && input !== null && !Array.isArray(input)
  const first = options[0]?.entries ?? {}
  const discriminator = record
    ? Object.keys(first).find((key) => options.every((o) => o.entries?.[key]?.type === 'literal'))
    : undefined
  let candidates = options
  if (discriminator !== undefined) {
    const value = (input as Record<string, unknown>)[discriminator]
    const named = options.filter((o) => o.entries?.[discriminator]?.literal === value)
    if (named.length === 0) {
      const expected = options.map((o) => JSON.stringify(o.entries?.[discriminator]?.literal))
      return [
        {
          code: 'field_not_one_of',
          params: { field: joined(at, discriminator), expected: expected.join(', ') },
        },
      ]
    }
    candidates = named
  }
  let closest: readonly v.BaseIssue<unknown>[] | null = null
  let closestSchema: AnySchema | null = null
  for (const option of candidates) {
    const result = v.safeParse(option, input)
    if (result.success) return []
    if (!closest || result.issues.length < closest.length) {
      closest = result.issues
      closestSchema = option
    }
  }
  if (!closest || !closestSchema) return []
  return issuesToProblems(closest, (issue) => joined(at, dotPath(issue)), closestSchema)
}

/**
 * The problems of valibot issues, in order, each once (each at its dot path, unless told); with the
 * schema, a union's refusal says what was wrong inside its closest option.
 */
export function issuesToProblems(
  issues: readonly v.BaseIssue<unknown>[],
  pathOf: IssuePath = dotPath,
  schema?: v.GenericSchema,
): ProblemData[] {
  const seen = new Set<string>()
  const problems: ProblemData[] = []
  for (const issue of issues) {
    const union =
      schema && issue.type === 'union' && issue.issues
        ? schemaAt(schema as AnySchema, issue.path ?? [])
        : null
    const found =
      union?.type === 'union'
        ? unionProblems(union, issue.input, pathOf(issue))
        : [problemOf(issue, pathOf)]
    for (const p of found.length > 0 ? found : [problemOf(issue, pathOf)]) {
      const key = keyOf(p)
      if (seen.has(key)) continue
      seen.add(key)
      problems.push(p)
    }
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
    : { success: false, problems: issuesToProblems(result.issues, dotPath, schema) }
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
