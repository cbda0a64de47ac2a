import { useCallback, useEffect, useState } from 'react'

// What a page loads after its route's loader: a part it reads again (after an action, on the
// person's request, when what it depends on changes). One hook for the console's pages and the
// advertisers': each says how a failure reads (the console's message, the advertisers' problems).

export type Loaded<T, F = string> =
  | { status: 'loading' }
  | { status: 'failed'; message: F }
  | { status: 'ready'; value: T }

/**
 * Loads with `load` (aborted when `deps` change or the page goes), turns a failure into what the
 * page shows with `failure`, and answers a way to load it again. Nothing of it is stored: it lives
 * in the page only.
 */
export function useLoad<T, F = string>(
  load: (signal: AbortSignal) => Promise<T>,
  deps: readonly unknown[],
  failure: (error: unknown) => F,
): [Loaded<T, F>, () => void] {
  const [state, setState] = useState<Loaded<T, F>>({ status: 'loading' })
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
