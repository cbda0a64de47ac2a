// spec §9 link prefetch: the next step's code is fetched after 2000 ms of idle time, and never
// offline, on a 2g connection or with data saving on (navigator.connection).

export const LINK_PREFETCH_IDLE_MS = 2000

/** What the browser says of its network (navigator.onLine and navigator.connection, when it has one). */
export type NetworkHints = {
  online: boolean
  saveData?: boolean | undefined
  /** 'slow-2g', '2g', '3g' or '4g' (Network Information API) */
  effectiveType?: string | undefined
}

export function mayPrefetch({ online, saveData, effectiveType }: NetworkHints): boolean {
  if (!online || saveData === true) return false
  return !(effectiveType ?? '').includes('2g')
}
