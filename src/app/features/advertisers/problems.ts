import type { ProblemData } from '../../../domain/problems'
import { ApiError } from '../../lib/api'

/** The problems of a failed call (one that never got an answer: `unknown_error`). */
export function problemsOfError(error: unknown): ProblemData[] {
  if (error instanceof ApiError && error.problems.length > 0) return error.problems
  return [{ code: 'unknown_error' }]
}

/**
 * A form's problems sorted out: each beside its field (by the field the problem names, else by the
 * field its code is about), the rest above the form.
 */
export function splitProblems<F extends string>(
  problems: readonly ProblemData[],
  fields: readonly F[],
  byCode: Partial<Record<string, F>> = {},
): { fields: Partial<Record<F, ProblemData>>; rest: ProblemData[] } {
  const out: Partial<Record<F, ProblemData>> = {}
  const rest: ProblemData[] = []
  for (const problem of problems) {
    const named = problem.params?.field
    const field =
      typeof named === 'string' && (fields as readonly string[]).includes(named.split('.')[0] ?? '')
        ? (named.split('.')[0] as F)
        : byCode[problem.code]
    if (field && !out[field]) out[field] = problem
    else rest.push(problem)
  }
  return { fields: out, rest }
}
