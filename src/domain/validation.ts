import * as v from 'valibot'
import { messages } from './messages'

// spec §5: contact validation with the spec's exact messages.

export const NAME_MAX_LENGTH = 100

// A lone surrogate ("\ud800") is valid JSON but no character: it cannot be encoded
// as UTF-8, so it could never be stored, rendered or mailed faithfully. With the u flag a paired
// surrogate is one astral code point, so \p{Cs} matches only the lone halves.
const LONE_SURROGATE = /\p{Cs}/u
export const ILL_FORMED_TEXT = 'must be well-formed Unicode text'

/** True when a text holds no lone surrogate (String.prototype.isWellFormed, ES2024). */
export function isWellFormedText(value: string): boolean {
  return !LONE_SURROGATE.test(value)
}

/** The well-formedness check of every text field of the wire (contract/common.ts). */
export const wellFormed = <T extends string>(message = ILL_FORMED_TEXT) =>
  v.check<T, string>(isWellFormedText, message)

export const EmailSchema = v.pipe(
  v.string(messages.emailInvalid),
  wellFormed(messages.emailInvalid),
  v.trim(),
  v.email(messages.emailInvalid),
  v.maxLength(254, messages.emailInvalid),
)

// spec §5/§9: the hint is XXX-XXX-XXXX; international numbers are written with a leading +
// (E.164 allows at most 15 digits, country codes never start with 0).
export const US_PHONE_PATTERN = /^\d{3}-\d{3}-\d{4}$/
export const INTERNATIONAL_PHONE_PATTERN = /^\+[1-9](?:[ .-]?\d){6,14}$/

export function isValidPhone(value: string): boolean {
  return US_PHONE_PATTERN.test(value) || INTERNATIONAL_PHONE_PATTERN.test(value)
}

export const PhoneSchema = v.pipe(
  v.string(messages.phoneInvalid),
  wellFormed(messages.phoneInvalid),
  v.trim(),
  v.check(isValidPhone, messages.phoneInvalid),
)

export const FirstNameSchema = v.pipe(
  v.string(messages.firstNameEmpty),
  wellFormed(),
  v.trim(),
  v.nonEmpty(messages.firstNameEmpty),
  v.maxLength(NAME_MAX_LENGTH, messages.firstNameTooLong),
)

export const LastNameSchema = v.pipe(
  v.string(messages.lastNameEmpty),
  wellFormed(),
  v.trim(),
  v.nonEmpty(messages.lastNameEmpty),
  v.maxLength(NAME_MAX_LENGTH, messages.lastNameTooLong),
)

export const ContactInfoSchema = v.object({
  firstName: FirstNameSchema,
  lastName: LastNameSchema,
  email: EmailSchema,
  phone: PhoneSchema,
})
export type ContactInfo = v.InferOutput<typeof ContactInfoSchema>

/**
 * The first message for each field (dot path, 'customer.firstName'), for showing beside the field.
 * A problem with the value as a whole is keyed ''.
 */
export function fieldErrors(
  schema: v.GenericSchema,
  value: unknown,
): Partial<Record<string, string>> {
  const result = v.safeParse(schema, value)
  const errors: Partial<Record<string, string>> = {}
  if (result.success) return errors
  for (const issue of result.issues) {
    const path = v.getDotPath(issue) ?? ''
    errors[path] ??= issue.message
  }
  return errors
}

/** The message for one value against one field schema, or null when it is valid. */
export function fieldError(schema: v.GenericSchema, value: unknown): string | null {
  const result = v.safeParse(schema, value)
  return result.success ? null : (result.issues[0]?.message ?? null)
}
