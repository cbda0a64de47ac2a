import {
  createContext,
  type ReactNode,
  startTransition,
  useContext,
  useEffect,
  useState,
} from 'react'

// False while React hydrates the server's HTML (and on the server), true from then on; true from the
// start when the page is rendered in the browser (no gate: the worker's shell, the later steps).
const Hydrated = createContext(!import.meta.env.SSR)

/**
 * Wraps the app where its HTML comes from the server (src/app/entry-server.tsx) and where the
 * browser hydrates it (src/app/start.tsx): false in both, then true once hydrated. State that the
 * browser changes at start (the saved order restored, the online state, the feature flags) is shown
 * only once this is true: hydration must see what the server rendered, or React keeps the server's
 * attributes without a word (valtio's useSnapshot answers the live store even while
 * hydrating).
 *
 * One context flipped in a transition, not a useSyncExternalStore per component: React re-renders a
 * component whose store snapshot differs after hydration synchronously, in one task (every button,
 * the location step's whole list: a long task at 4x CPU); a transition renders the same
 * change in slices.
 */
export function HydrationGate({ children }: { children: ReactNode }) {
  const [hydrated, setHydrated] = useState(false)
  useEffect(() => {
    startTransition(() => setHydrated(true))
  }, [])
  return <Hydrated value={hydrated}>{children}</Hydrated>
}

export function useHydrated(): boolean {
  return useContext(Hydrated)
}
