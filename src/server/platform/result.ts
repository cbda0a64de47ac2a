// What a service answers: its value, or a typed error whose `code` is stable ('slots_taken',
// 'event_not_found'). Services never know HTTP: each module's routes turn an error into a status and
// the spec's text (platform/http/errors.ts).

export type Result<T, E extends { code: string }> =
  | { readonly ok: true; readonly value: T }
  | { readonly ok: false; readonly error: E }

export const ok = <T>(value: T): { readonly ok: true; readonly value: T } => ({ ok: true, value })

/** A failure: a service's problem, or (in a route) a refusal of several problems. */
export const err = <E extends { code: string } | { problems: readonly { code: string }[] }>(
  error: E,
): { readonly ok: false; readonly error: E } => ({ ok: false, error })

/** The value of a success changed by `f`; a failure as it is. */
export const mapOk = <T, U, E extends { code: string }>(
  result: Result<T, E>,
  f: (value: T) => U,
): Result<U, E> => (result.ok ? ok(f(result.value)) : result)

/** The error of a failure changed by `f` (into a route's refusal); a success as it is. */
export const mapErr = <T, E extends { code: string }, F>(
  result: Result<T, E>,
  f: (error: E) => F,
): { readonly ok: true; readonly value: T } | { readonly ok: false; readonly error: F } =>
  result.ok ? result : { ok: false, error: f(result.error) }
