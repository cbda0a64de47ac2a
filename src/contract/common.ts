import * as v from 'valibot'
import { CONTENT_TYPES } from '../domain/content'
import { isValidTimeZone } from '../domain/date-hour'
import { LOCALES } from '../domain/locale'
import { messages } from '../domain/messages'
import { AGREEMENT_LABELS } from '../domain/order-rules'
import { wellFormed } from '../domain/validation'

// Building blocks of the wire schemas, and how a failed parse becomes the `{errors: string[]}` body of
// api-v1. Request bodies are strict objects (unknown fields are a 400); responses are plain objects, so
// an older app keeps working when the server adds a field. Query strings arrive as strings.

/** A required text of at most `max` characters, well-formed (no lone surrogate). */
/* @__NO_SIDE_EFFECTS__ */
export const text = (max = 200) =>
  v.pipe(v.string(), wellFormed(), v.nonEmpty(messages.requiredField), v.maxLength(max))
/** A free text that may be empty (a name on a billboard, a message), well-formed, trimmed or not. */
/* @__NO_SIDE_EFFECTS__ */
export const freeText = (max: number, { trim = false } = {}) =>
  trim
    ? v.pipe(v.string(), wellFormed(), v.trim(), v.maxLength(max))
    : v.pipe(v.string(), wellFormed(), v.maxLength(max))
export const EpochMsSchema = v.pipe(
  v.number(),
  v.safeInteger('must be a whole number of milliseconds'),
)
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
  v.regex(/^[a-z0-9]+(?:-[a-z0-9]+)*$/, 'must be lowercase words joined by hyphens'),
  v.maxLength(100),
)

export const TimeZoneIdSchema = v.pipe(
  v.string(),
  v.check(isValidTimeZone, 'must be an IANA time zone name such as Europe/Paris'),
)

export const CurrencySchema = v.pipe(
  v.string(),
  v.regex(/^[A-Z]{3}$/, 'must be a three-letter ISO 4217 code such as USD'),
)

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
    v.regex(/^\d+$/, 'must be a whole number'),
    v.transform(Number),
    v.minValue(min, `must be at least ${min}`),
    v.maxValue(max, `must be at most ${max}`),
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
// ('slots_taken', 'event_not_found') a client can translate or act on; `errors` keeps the spec's text.
export const ErrorBodySchema = v.object({
  errors: v.array(v.string()),
  codes: v.optional(v.array(v.string())),
})
export type ErrorBody = v.InferOutput<typeof ErrorBodySchema>

/** An empty JSON body (`{}`), for calls that change state and need nothing else. */
export const EmptyBodySchema = v.strictObject({})

// ---------- issues → error strings ----------

// The spec's own sentences; the short field suffixes are not among them. An agreement's sentence names
// its agreement (kept whole, so its code is agreement_required).
const SPEC_MESSAGES: ReadonlySet<string> = new Set([
  ...Object.values(messages).filter(
    (m): m is Extract<typeof m, string> =>
      typeof m === 'string' && m !== messages.requiredField && m !== messages.unknownField,
  ),
  ...Object.values(AGREEMENT_LABELS).map(messages.agreementRequired),
])

/**
 * Turns valibot issues into the strings of `{errors: string[]}`: 'customer.lastName: is required',
 * 'zz: is not an allowed field'. A spec message ('Email Address is invalid') is kept verbatim,
 * because api-v1 says the spec's exact English text is used and it already names its field.
 */
export function issuesToErrors(issues: readonly v.BaseIssue<unknown>[]): string[] {
  const errors = issues.map((issue) => {
    if (SPEC_MESSAGES.has(issue.message)) return issue.message
    const path = v.getDotPath(issue)
    return path ? `${path}: ${issueMessage(issue)}` : issueMessage(issue)
  })
  return [...new Set(errors)]
}

function issueMessage(issue: v.BaseIssue<unknown>): string {
  if (issue.type === 'strict_object' && issue.expected === 'never') return messages.unknownField
  if (issue.kind === 'schema' && issue.input === undefined) return messages.requiredField
  return issue.message
}

/** Validates input against a schema: the output, or the errors ready for a 400 body. */
export function parseWithErrors<TSchema extends v.GenericSchema>(
  schema: TSchema,
  input: unknown,
): { success: true; output: v.InferOutput<TSchema> } | { success: false; errors: string[] } {
  const result = v.safeParse(schema, input)
  return result.success
    ? { success: true, output: result.output }
    : { success: false, errors: issuesToErrors(result.issues) }
}
