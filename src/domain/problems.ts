// A problem is data: a code and the values its sentence needs ({code: 'slot_not_in_event',
// params: {slot: 12}}), never an English sentence. The rules here name their problems by these codes;
// the sentences, in English, are written once, in the contract's catalogue (src/contract/problems.ts),
// which must give every code of this union a status and a text (a type error otherwise). The server
// writes the English at its HTTP edge; the app and the mails translate by code (Lingui).

/** The codes of the problems the rules of src/domain find. */
export type DomainProblemCode =
  /** a value a schema refuses without a code of its own (valibot's words are its detail) */
  | 'invalid_input'
  // spec §5: contact details
  | 'email_invalid'
  | 'phone_invalid'
  /** a phone number that is none of the billboard's country (its example as `example`) */
  | 'phone_invalid_for_country'
  | 'first_name_empty'
  | 'last_name_empty'
  | 'first_name_too_long'
  | 'last_name_too_long'
  /** a text field holding a lone surrogate (not a character) */
  | 'text_ill_formed'
  /** a name holding a line break or another control character */
  | 'name_not_one_line'
  // spec §4, §5, §8: the order flow
  | 'no_slots_selected'
  | 'agreement_required'
  | 'missing_generated_content'
  | 'missing_content_metadata'
  | 'slot_already_selected'
  | 'slot_not_selected'
  | 'slot_not_in_event'
  // spec §5: dates
  | 'date_format_invalid'
  | 'bad_weekday'
  | 'bad_hour'
  // operators' passwords, and an order the review outlived
  | 'password_weak'
  | 'password_too_long'
  | 'review_outlived_first_slot'
  // advertisers' campaigns (campaign.ts; spec §8 schedule and budget messages)
  | 'campaign_start_past'
  | 'campaign_start_too_soon'
  | 'campaign_start_too_far'
  | 'campaign_end_too_far'
  | 'campaign_end_before_start'
  | 'campaign_flight_too_long'
  | 'campaign_budget_below_spent'

/** A value of a problem's sentence: a number, a text, or another problem (the reason of a failure). */
export type ProblemParam = string | number | ProblemData
export type ProblemParams = { readonly [name: string]: ProblemParam }

/** A problem as it travels and is stored: its code and its values (none: no params). */
export type ProblemData = { readonly code: string; readonly params?: ProblemParams }

/** A problem of the rules; narrowed to the codes a rule can find (`DomainProblem<'bad_hour'>`). */
export type DomainProblem<C extends DomainProblemCode = DomainProblemCode> = {
  readonly code: C
  readonly params?: ProblemParams
}

export const domainProblem = <C extends DomainProblemCode>(
  code: C,
  params?: ProblemParams,
): DomainProblem<C> => (params ? { code, params } : { code })

/** A rule that cannot be applied (a slot selected twice, a weekday that is none): its problem. */
export class RuleError extends Error {
  override readonly name: string = 'RuleError'
  constructor(readonly problem: DomainProblem) {
    super(issueMessage(problem.code, problem.params))
  }
}

// Valibot's issues carry a message string: a schema's message is a problem written as its code, then
// its params as JSON when it has some ('agreement_required {"agreement":"terms"}'). A message of
// valibot's own (no message given: 'Invalid type: Expected string but received 5') is no code.
const ISSUE = /^([a-z][a-z0-9]*(?:_[a-z0-9]+)*)(?: (\{.*\}))?$/s

/** A problem as the message of a valibot schema. */
export const issueMessage = (code: string, params?: ProblemParams): string =>
  params && Object.keys(params).length > 0 ? `${code} ${JSON.stringify(params)}` : code

/** The problem a schema's message names, or null for a message of valibot's own. */
export function problemOfIssueMessage(message: string): ProblemData | null {
  const match = ISSUE.exec(message)
  if (!match?.[1]) return null
  if (!match[2]) return { code: match[1] }
  try {
    const params = JSON.parse(match[2]) as unknown
    return typeof params === 'object' && params !== null && !Array.isArray(params)
      ? { code: match[1], params: params as ProblemParams }
      : null
  } catch {
    return null
  }
}
