import { declineProblemCode, isProblemCode, PROBLEMS, type ProblemCode } from './problems'

// @deprecated: the catalogue is ./problems.ts. These names stay for the modules not yet converted
// (content, order) and go with their conversion.

export type ErrorCode = ProblemCode
export const ERROR_CODES = Object.fromEntries(
  Object.entries(PROBLEMS).map(([code, entry]) => [code, entry.en]),
) as { readonly [C in ProblemCode]: (typeof PROBLEMS)[C]['en'] }
export const isErrorCode = isProblemCode
export const declineErrorCode = declineProblemCode
