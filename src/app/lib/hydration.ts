import { useSyncExternalStore } from 'react'

const never = () => () => {}

/**
 * False while React hydrates the server's HTML (and on the server), true from then on; always true
 * when the page was rendered in the browser. State that the browser changes at start (the saved
 * order restored, the online state, the feature flags) is shown only once this is true: hydration
 * must see what the server rendered, or React keeps the server's attributes without a word (issue 11;
 * valtio's useSnapshot answers the live store even while hydrating). React renders again with the
 * live state right after hydrating.
 */
export function useHydrated(): boolean {
  return useSyncExternalStore(
    never,
    () => true,
    () => false,
  )
}
