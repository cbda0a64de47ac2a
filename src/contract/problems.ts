import type {
  DomainProblemCode,
  ProblemData,
  ProblemParam,
  ProblemParams,
} from '../domain/problems'
import { type WORD_PARAMS, wordTableOf } from './problem-words'
import { ADVERTISER_PROBLEMS } from './problems-advertisers'
import { CONSOLE_PROBLEMS } from './problems-console'
import { CONTENT_PROBLEMS } from './problems-content'
import { REQUEST_PROBLEMS } from './problems-request'
import { SHOP_PROBLEMS } from './problems-shop'

// The one catalogue of problems: every code the server, the rules (src/domain/problems.ts) or the
// app can name, with its HTTP status and its English text, written in this catalogue (its parts) and nowhere else. `{name}` in
// a text is a value the problem carries in its params; a value that is a key ('terms', 'photo') is
// written as the word of its table (WORDS below; which params are keys: ./problem-words.ts);
// `{name, number}` is a number written with its grouping (16,384), as Lingui's ICU writes it.
//
// Who reads it: the server's HTTP edge writes `errors` from it (src/server/platform/http/errors.ts),
// the mails and the CLIs their English; Lingui's extraction reads it (lingui.config.ts), so each code
// is a message of the catalogs (src/locale) whose id is the code: the app translates a problem by its
// code (src/app/lib/problem-text.ts), never by its English. The app never imports this file (its
// English would weigh on the first screen); it imports types only.
//
// The codes are written in parts, one per area of the product (./problems-request.ts, -shop, -content,
// -console, -advertisers: PROBLEM_PARTS below), and assembled here; a code is in one part only.
//
// To add a code: a line in its area's part, in the group of its module, with its status and text (no
// other code may have the same text); `npm run lingui:extract`; its French and German in src/locale/locales/{fr,de}
// and src/locale/ops/{fr,de} (the catalog test names what is missing).

/** Tables of words a value stands for: the key travels, the word is written. */
export const WORDS = {
  // spec §5: the four agreements, by their key in the order's `agreements`
  agreement: {
    safetyWarning: 'safety warning',
    terms: 'terms and conditions',
    noChanges: 'no-changes acknowledgement',
    privacyPolicy: 'privacy policy',
  },
  contentType: { photo: 'photo', video: 'video' },
  contentTypeTitle: { photo: 'Photo', video: 'Video' },
  // a campaign's states (api-v1 "Advertisers")
  campaignState: {
    Draft: 'a draft',
    Proposed: 'proposed',
    Booked: 'booked',
    Approved: 'approved',
    Live: 'live',
    Paused: 'paused',
    Completed: 'completed',
    Rejected: 'rejected',
    Cancelled: 'cancelled',
  },
  // what a catalogue file names twice (catalogue/format.ts)
  catalogueId: {
    deviceId: 'deviceId',
    templateId: 'template id',
    eventSlug: 'event slug',
    promoCode: 'promoCode',
  },
  // what else a file that claims to be a video is (src/server/video/sniff.ts)
  fileKind: {
    png: 'a PNG image',
    jpeg: 'a JPEG image',
    gif: 'a GIF image',
    webp: 'a WebP image',
    tiff: 'a TIFF image',
    pdf: 'a PDF document',
    zip: 'a ZIP archive',
    markup: 'HTML or script',
  },
} as const satisfies Record<string, Record<string, string>>

export type WordTable = keyof typeof WORDS

type Entry = { readonly status: number; readonly en: string }

/** The parts of the catalogue, by the file each is written in (Lingui's extraction reads them so). */
export const PROBLEM_PARTS = {
  'problems-request.ts': REQUEST_PROBLEMS,
  'problems-shop.ts': SHOP_PROBLEMS,
  'problems-content.ts': CONTENT_PROBLEMS,
  'problems-console.ts': CONSOLE_PROBLEMS,
  'problems-advertisers.ts': ADVERTISER_PROBLEMS,
} as const

export const PROBLEMS = {
  ...REQUEST_PROBLEMS,
  ...SHOP_PROBLEMS,
  ...CONTENT_PROBLEMS,
  ...CONSOLE_PROBLEMS,
  ...ADVERTISER_PROBLEMS,
} as const satisfies Record<DomainProblemCode, Entry> & Record<string, Entry>

export type ProblemCode = keyof typeof PROBLEMS

/** The codes of bad input (400): possible on any endpoint, so none declares them. */
export type BadInputCode = {
  [C in ProblemCode]: (typeof PROBLEMS)[C]['status'] extends 400 ? C : never
}[ProblemCode]

/** The names of the placeholders of a text: `{name}`, or `{name, number}` (written with grouping). */
type Placeholders<S extends string> = S extends `${string}{${infer Name}}${infer Rest}`
  ? (Name extends `${infer Bare}, ${string}` ? Bare : Name) | Placeholders<Rest>
  : never

type WordKeys<C extends ProblemCode, P extends string> = C extends keyof typeof WORD_PARAMS
  ? P extends keyof (typeof WORD_PARAMS)[C]
    ? (typeof WORD_PARAMS)[C][P] extends WordTable
      ? keyof (typeof WORDS)[(typeof WORD_PARAMS)[C][P]]
      : ProblemParam
    : ProblemParam
  : ProblemParam

/** The params a code's text needs: one per placeholder (a key of its table for a word). */
export type ParamsOf<C extends ProblemCode> = {
  readonly [P in Placeholders<(typeof PROBLEMS)[C]['en']>]: WordKeys<C, P>
}

/** A problem of the catalogue: its code and the values of its text. */
export type Problem<C extends ProblemCode = ProblemCode> = {
  readonly code: C
  readonly params?: ProblemParams
}

type ParamsArg<C extends ProblemCode> = [Placeholders<(typeof PROBLEMS)[C]['en']>] extends [never]
  ? []
  : [params: ParamsOf<C>]

/** A problem of the catalogue, with the params its text needs (a type error when one is missing). */
export function problem<C extends ProblemCode>(code: C, ...params: ParamsArg<C>): Problem<C> {
  const [values] = params as [ProblemParams?]
  return values ? { code, params: values } : { code }
}

export const isProblemCode = (code: string): code is ProblemCode => Object.hasOwn(PROBLEMS, code)

/** The status of a code, or 500 for a code the catalogue does not know. */
export const statusOf = (code: string): number =>
  isProblemCode(code) ? PROBLEMS[code].status : 500

const wordOf = (code: ProblemCode, param: string, value: ProblemParam): string | null => {
  const table = wordTableOf(code, param)
  if (!table || typeof value !== 'string' || !Object.hasOwn(WORDS, table)) return null
  const words: Readonly<Record<string, string>> = WORDS[table as WordTable]
  return Object.hasOwn(words, value) ? (words[value] ?? null) : null
}

/**
 * A problem's English text: its code's text with its values written in (a word for a key, the
 * English of a problem given as a value). A code the catalogue does not know is written as it is.
 */
export function englishOf(problem: ProblemData): string {
  if (!isProblemCode(problem.code)) return problem.code
  const code = problem.code
  const params = problem.params ?? {}
  return PROBLEMS[code].en.replace(/\{(\w+)(, number)?\}|''/g, (whole, name, number) => {
    if (whole === "''") return "'"
    const value = params[name as string]
    if (value === undefined) return whole
    if (typeof value === 'object') return englishOf(value)
    if (number && typeof value === 'number') return value.toLocaleString('en-US')
    return wordOf(code, name, value) ?? String(value)
  })
}

/** The codes of a card's decline (Stripe's decline codes the catalogue names). */
export type DeclineCode =
  | 'card_declined'
  | 'insufficient_funds'
  | 'expired_card'
  | 'incorrect_cvc'
  | 'incorrect_number'
  | 'processing_error'
  | 'authentication_required'

const DECLINE_CODES: ReadonlySet<string> = new Set<DeclineCode>([
  'card_declined',
  'insufficient_funds',
  'expired_card',
  'incorrect_cvc',
  'incorrect_number',
  'processing_error',
  'authentication_required',
])

/** Whether a problem is a card's decline (an order that failed on its payment). */
export const isDeclineCode = (code: string): boolean => DECLINE_CODES.has(code)

/** Stripe's decline code as sent, or card_declined for one the catalogue does not name. */
export const declineProblemCode = (declineCode: string): DeclineCode =>
  DECLINE_CODES.has(declineCode) ? (declineCode as DeclineCode) : 'card_declined'
