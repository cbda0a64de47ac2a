// spec §4 and §9: lifetimes and timings, in milliseconds.

const MINUTE_MS = 60_000
const HOUR_MS = 60 * MINUTE_MS

export const TTL = {
  orderData: 60 * MINUTE_MS,
  template: 60 * MINUTE_MS,
  generatedContent: 60 * MINUTE_MS,
  modes: HOUR_MS,
  valuePerSlot: HOUR_MS,
  activeDevice: HOUR_MS,
  uploadIds: 4 * MINUTE_MS,
  timeZoneOffsetCache: HOUR_MS,
} as const
export type StoredKind = keyof typeof TTL

export const STATUS_RESET_MS = 3000
export const ASYNC_POLL_MS = 3000
export const CHUNK_RELOAD_GUARD_MS = 60_000
/** After the connection comes back, a chunk failing this long is the connection's, not a deploy's. */
export const RECONNECT_GRACE_MS = 10_000
export const ORDER_STATUS_MAX_CHECKS = 10
export const ORDER_STATUS_STEP_MS = 500
export const VIDEO_PROCESSING_MAX_MS = 30_000
export const DEVICE_PAGE_SIZE = 200
export const LOCALE_COOKIE = { name: 'i18n_redirected', maxAgeDays: 365, sameSite: 'lax' } as const

/** spec §7: before status check n (1, 2, …) wait 500 ms × n. */
export function orderStatusDelayMs(checkNumber: number): number {
  return ORDER_STATUS_STEP_MS * checkNumber
}

/** spec §7: polling stops once the check number exceeds the maximum (10). */
export function mayCheckOrderStatus(checkNumber: number): boolean {
  return checkNumber <= ORDER_STATUS_MAX_CHECKS
}

/**
 * conventions, habit 3: every value the app keeps in the browser is wrapped as
 * {version, savedAt, ttlMs, data}; the app's one persistence wrapper (src/app/stores/persist.ts) writes
 * and reads them with these rules.
 */
export type Envelope<T> = { version: number; savedAt: number; ttlMs: number; data: T }

export function envelope<T>(data: T, ttlMs: number, nowEpochMs: number, version = 1): Envelope<T> {
  return { version, savedAt: nowEpochMs, ttlMs, data }
}

/** Fresh while now is before savedAt + ttlMs; an envelope from the future is not trusted. */
export function isFresh(
  saved: Pick<Envelope<unknown>, 'savedAt' | 'ttlMs'>,
  nowEpochMs: number,
): boolean {
  return saved.savedAt <= nowEpochMs && nowEpochMs < saved.savedAt + saved.ttlMs
}

/**
 * The data of a saved value, or null when it reads as absent (spec §9 lifetimes): not an envelope,
 * another version, expired, or saved in the future. The caller still checks the data's shape.
 */
export function openEnvelope(
  saved: unknown,
  version: number,
  nowEpochMs: number,
): { data: unknown } | null {
  if (typeof saved !== 'object' || saved === null) return null
  const { version: savedVersion, savedAt, ttlMs, data } = saved as Record<string, unknown>
  if (
    typeof savedVersion !== 'number' ||
    typeof savedAt !== 'number' ||
    typeof ttlMs !== 'number'
  ) {
    return null
  }
  if (savedVersion !== version || !isFresh({ savedAt, ttlMs }, nowEpochMs)) return null
  return { data }
}
