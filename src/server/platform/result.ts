// What a service answers: its value, or a typed error whose `code` is stable ('slots_taken',
// 'event_not_found'). Services never know HTTP: each module's routes turn an error into a status and
// the spec's text (platform/http/errors.ts).

export type Result<T, E extends { code: string }> =
  | { readonly ok: true; readonly value: T }
  | { readonly ok: false; readonly error: E }

export const ok = <T>(value: T): { readonly ok: true; readonly value: T } => ({ ok: true, value })

export const err = <E extends { code: string }>(
  error: E,
): { readonly ok: false; readonly error: E } => ({ ok: false, error })
