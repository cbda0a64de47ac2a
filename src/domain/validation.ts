import * as v from 'valibot'
import { type DomainProblem, type DomainProblemCode, problemOfIssueMessage } from './problems'

// spec §5: contact validation. Each schema refuses with the code of the spec's sentence
// (src/domain/problems.ts); the sentences are the contract's catalogue's.

export const NAME_MAX_LENGTH = 100

// A lone surrogate ("\ud800") is valid JSON but no character: it cannot be encoded
// as UTF-8, so it could never be stored, rendered or mailed faithfully. With the u flag a paired
// surrogate is one astral code point, so \p{Cs} matches only the lone halves.
const LONE_SURROGATE = /\p{Cs}/u
export const ILL_FORMED_TEXT: DomainProblemCode = 'text_ill_formed'

/** True when a text holds no lone surrogate (String.prototype.isWellFormed, ES2024). */
export function isWellFormedText(value: string): boolean {
  return !LONE_SURROGATE.test(value)
}

// A name is one line of text: a line break (CR, LF, U+2028/9) or any other control character could
// start a new header or line in a mail, a calendar entry or a log, and is no part of anyone's name.
const CONTROL_CHARACTER = /[\p{Cc}\u2028\u2029]/u

/** True when a name holds no control character (a line break among them). */
export function isOneLine(value: string): boolean {
  return !CONTROL_CHARACTER.test(value)
}

/** The check of every name field (a shopper's names, the names on a billboard). */
export const oneLine = <T extends string>() =>
  v.check<T, string>(isOneLine, 'name_not_one_line' satisfies DomainProblemCode)

/** The well-formedness check of every text field of the wire (contract/common.ts). */
export const wellFormed = <T extends string>(message: DomainProblemCode = ILL_FORMED_TEXT) =>
  v.check<T, string>(isWellFormedText, message)

export const EmailSchema = v.pipe(
  v.string('email_invalid'),
  wellFormed('email_invalid'),
  v.trim(),
  v.email('email_invalid'),
  v.maxLength(254, 'email_invalid'),
)

// spec §5: a phone number as the wire carries it, before it is read in the billboard's country
// (phone.ts checkPhone, which the server applies to every order: the number it keeps is E.164).
// Here only its shape: the characters people write numbers with, an optional leading +.
const PHONE_TEXT = /^\+?[\d\s().\-/]{2,40}$/

/** True when a text is written like a phone number (its country's rules are phone.ts's). */
export function isPhoneText(value: string): boolean {
  return PHONE_TEXT.test(value) && (value.match(/\d/g)?.length ?? 0) >= 3
}

export const PhoneSchema = v.pipe(
  v.string('phone_invalid'),
  wellFormed('phone_invalid'),
  v.trim(),
  v.check(isPhoneText, 'phone_invalid'),
)

export const FirstNameSchema = v.pipe(
  v.string('first_name_empty'),
  wellFormed(),
  v.trim(),
  oneLine(),
  v.nonEmpty('first_name_empty'),
  v.maxLength(NAME_MAX_LENGTH, 'first_name_too_long'),
)

export const LastNameSchema = v.pipe(
  v.string('last_name_empty'),
  wellFormed(),
  v.trim(),
  oneLine(),
  v.nonEmpty('last_name_empty'),
  v.maxLength(NAME_MAX_LENGTH, 'last_name_too_long'),
)

export const ContactInfoSchema = v.object({
  firstName: FirstNameSchema,
  lastName: LastNameSchema,
  email: EmailSchema,
  phone: PhoneSchema,
})
export type ContactInfo = v.InferOutput<typeof ContactInfoSchema>

/** The problem of a schema's issue: the code it names, else invalid_input with valibot's words. */
const issueProblem = (issue: v.BaseIssue<unknown>): DomainProblem =>
  (problemOfIssueMessage(issue.message) as DomainProblem | null) ?? {
    code: 'invalid_input',
    params: { detail: issue.message },
  }

/**
 * The first problem for each field (dot path, 'customer.firstName'), for showing beside the field.
 * A problem with the value as a whole is keyed ''.
 */
export function fieldErrors(
  schema: v.GenericSchema,
  value: unknown,
): Partial<Record<string, DomainProblem>> {
  const result = v.safeParse(schema, value)
  const errors: Partial<Record<string, DomainProblem>> = {}
  if (result.success) return errors
  for (const issue of result.issues) {
    const path = v.getDotPath(issue) ?? ''
    errors[path] ??= issueProblem(issue)
  }
  return errors
}

/** The problem of one value against one field schema, or null when it is valid. */
export function fieldError(schema: v.GenericSchema, value: unknown): DomainProblem | null {
  const result = v.safeParse(schema, value)
  const issue = result.success ? undefined : result.issues[0]
  return issue ? issueProblem(issue) : null
}
