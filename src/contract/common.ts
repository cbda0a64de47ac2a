import * as v from 'valibot'
import { CONTENT_TYPES } from '../domain/content'
import { isValidTimeZone } from '../domain/date-hour'
import { LOCALES } from '../domain/locale'
import { issueMessage, type ProblemData } from '../domain/problems'
import { oneLine, wellFormed } from '../domain/validation'
import type { ParamsOf, ProblemCode } from './problems'

// Building blocks of the wire schemas. Request bodies are strict objects (unknown fields are a 400);
// responses are plain objects, so an older app keeps working when the server adds a field. Query
// strings arrive as strings. A schema refuses with a code of the catalogue (`issue`), never English:
// ./issues.ts turns a failed parse into problems.

type IssueParams<C extends ProblemCode> = Omit<ParamsOf<C>, 'field'>

/** A problem of the catalogue as a schema's message (the field's path is added from the issue). */
/* @__NO_SIDE_EFFECTS__ */
export const issue = <C extends ProblemCode>(
  code: C,
  ...params: keyof IssueParams<C> extends never ? [] : [IssueParams<C>]
): string => issueMessage(code, params[0])

/** A required text of at most `max` characters, well-formed (no lone surrogate). */
/* @__NO_SIDE_EFFECTS__ */
export const text = (max = 200) =>
  v.pipe(v.string(), wellFormed(), v.nonEmpty(issue('field_required')), v.maxLength(max))
/** A free text that may be empty (a name on a billboard, a message), well-formed, trimmed or not. */
/* @__NO_SIDE_EFFECTS__ */
export const freeText = (max: number, { trim = false } = {}) =>
  trim
    ? v.pipe(v.string(), wellFormed(), v.trim(), v.maxLength(max))
    : v.pipe(v.string(), wellFormed(), v.maxLength(max))
/** A name that may be empty (on a billboard): one line, well-formed, trimmed. */
/* @__NO_SIDE_EFFECTS__ */
export const nameText = (max: number) =>
  v.pipe(v.string(), wellFormed(), v.trim(), oneLine(), v.maxLength(max))
export const EpochMsSchema = v.pipe(v.number(), v.safeInteger(issue('whole_ms_required')))
/* @__NO_SIDE_EFFECTS__ */
export const nonNegativeInt = () => v.pipe(v.number(), v.safeInteger(), v.minValue(0))
/* @__NO_SIDE_EFFECTS__ */
export const positiveInt = () => v.pipe(v.number(), v.safeInteger(), v.minValue(1))
export const unique = <T>(items: readonly T[]) => new Set(items).size === items.length

export { CONTENT_TYPES, type ContentType } from '../domain/content'
export const ContentTypeSchema = v.picklist(CONTENT_TYPES)

export { LOCALES, type Locale } from '../domain/locale'
export const LocaleSchema = v.picklist(LOCALES)

// spec §3: slugs such as 'mothers-day' or 'share-your-dragon-france'
export const EventSlugSchema = v.pipe(
  v.string(),
  v.regex(/^[a-z0-9]+(?:-[a-z0-9]+)*$/, issue('slug_invalid')),
  v.maxLength(100),
)

export const TimeZoneIdSchema = v.pipe(
  v.string(),
  v.check(isValidTimeZone, issue('time_zone_invalid')),
)

export const CurrencySchema = v.pipe(v.string(), v.regex(/^[A-Z]{3}$/, issue('currency_invalid')))

export const CoordinatesSchema = v.object({
  lat: v.pipe(v.number(), v.minValue(-90), v.maxValue(90)),
  lng: v.pipe(v.number(), v.minValue(-180), v.maxValue(180)),
})
export type Coordinates = v.InferOutput<typeof CoordinatesSchema>

/** A whole number from a query string. */
/* @__NO_SIDE_EFFECTS__ */
export const queryNumber = (min: number, max: number) =>
  v.pipe(
    v.string(),
    v.regex(/^\d+$/, issue('whole_number_required')),
    v.transform(Number),
    v.minValue(min, issue('number_too_small', { min })),
    v.maxValue(max, issue('number_too_large', { max })),
  )

/** A whole number from a query string, with its default when absent. */
/* @__NO_SIDE_EFFECTS__ */
export const queryInt = (fallback: number, min: number, max: number) =>
  v.optional(queryNumber(min, max), String(fallback))

/** A repeated query parameter (`types=photo&types=video`) or a single one, as a list. */
/* @__NO_SIDE_EFFECTS__ */
export const queryList = <T extends v.GenericSchema<string>>(item: T, fallback: string[]) =>
  v.pipe(
    v.optional(v.union([v.string(), v.array(v.string())]), fallback),
    v.transform((value) => (Array.isArray(value) ? value : [value])),
    v.array(item),
  )

// spec §3: API error body. `codes`, parallel to `errors`, names each error with a stable code
// ('slots_taken', 'event_not_found') a client can translate or act on, and `params` gives the values
// of its sentence ({slots: '…'}); `errors` keeps the spec's English text (src/contract/problems.ts).
type ParamValue = string | number | ProblemData
const ParamValueSchema: v.GenericSchema<ParamValue> = v.union([
  v.string(),
  v.number(),
  v.lazy(() => ProblemSchema),
])
/** The values of a problem's sentence, by name. */
export const ParamsSchema = v.record(v.string(), ParamValueSchema)

/** A problem as it travels and is stored: its code and the values of its sentence. */
export const ProblemSchema: v.GenericSchema<ProblemData> = v.object({
  code: v.string(),
  params: v.optional(ParamsSchema),
})

/** Problems on the wire: their English (`errors`), and beside it their codes and params, in order. */
export const problemEntries = {
  errors: v.array(v.string()),
  codes: v.optional(v.array(v.string())),
  params: v.optional(v.array(ParamsSchema)),
}

export const ErrorBodySchema = v.object(problemEntries)
export type ErrorBody = v.InferOutput<typeof ErrorBodySchema>

/** The problems of an answer's {errors, codes, params}: a text sent without its code is plain_text. */
export function problemsOf(body: {
  readonly errors: readonly string[]
  readonly codes?: readonly string[] | undefined
  readonly params?: readonly ProblemData['params'][] | undefined
}): ProblemData[] {
  return body.errors.map((text, i) => {
    const code = body.codes?.[i]
    if (!code) return { code: 'plain_text', params: { text } }
    const params = body.params?.[i]
    return params && Object.keys(params).length > 0 ? { code, params } : { code }
  })
}

/** An empty JSON body (`{}`), for calls that change state and need nothing else. */
export const EmptyBodySchema = v.strictObject({})
