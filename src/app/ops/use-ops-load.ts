import { useCallback, useEffect, useState } from 'react'
import { useOpsFailure } from './errors'

export type Loaded<T> =
  | { status: 'loading' }
  | { status: 'failed'; message: string }
  | { status: 'ready'; value: T }

/**
 * Loads what a console page shows, with the console's failure messages (a 401 goes to sign-in), and
 * a way to load it again (after an action, or on the operator's request). Console data lives in the
 * page only: nothing of it goes to the shop's storage (IndexedDB, localStorage).
 */
export function useOpsLoad<T>(
  load: (signal: AbortSignal) => Promise<T>,
  deps: readonly unknown[],
): [Loaded<T>, () => void] {
  const failure = useOpsFailure()
  const [state, setState] = useState<Loaded<T>>({ status: 'loading' })
  const [round, setRound] = useState(0)
  // biome-ignore lint/correctness/useExhaustiveDependencies: the caller names what its load reads
  useEffect(() => {
    const controller = new AbortController()
    load(controller.signal).then(
      (value) => {
        if (!controller.signal.aborted) setState({ status: 'ready', value })
      },
      (error: unknown) => {
        if (!controller.signal.aborted) setState({ status: 'failed', message: failure(error) })
      },
    )
    return () => controller.abort()
  }, [...deps, round])
  const again = useCallback(() => setRound((r) => r + 1), [])
  return [state, again]
}
