import { STATUS_RESET_MS } from '../../domain/storage'

// spec §4: request status Running, Success, Failure or null (idle); Success and Failure reset to
// null after 3 s.
export type RequestStatus = 'Running' | 'Success' | 'Failure' | null

const timers = new WeakMap<object, Map<string, ReturnType<typeof setTimeout>>>()

export function setStatus<T extends object, K extends keyof T & string>(
  store: T,
  key: K,
  status: RequestStatus,
): void {
  const byKey = timers.get(store) ?? new Map<string, ReturnType<typeof setTimeout>>()
  timers.set(store, byKey)
  const previous = byKey.get(key)
  if (previous) clearTimeout(previous)
  ;(store as Record<string, unknown>)[key] = status
  if (status === 'Success' || status === 'Failure') {
    byKey.set(
      key,
      setTimeout(() => {
        ;(store as Record<string, unknown>)[key] = null
      }, STATUS_RESET_MS),
    )
  }
}
