import { type Loaded as LoadedOf, useLoad } from '../lib/use-load'
import { useOpsFailure } from './errors'

export type Loaded<T> = LoadedOf<T, string>

/**
 * Loads what a console page shows (the app's one loading hook, lib/use-load.ts), with the console's
 * failure messages (a 401 goes to sign-in). Console data lives in the page only: nothing of it goes
 * to the shop's storage (IndexedDB, localStorage).
 */
export function useOpsLoad<T>(
  load: (signal: AbortSignal) => Promise<T>,
  deps: readonly unknown[],
): [Loaded<T>, () => void] {
  return useLoad(load, deps, useOpsFailure())
}
