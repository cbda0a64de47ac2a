import { LINK_PREFETCH_IDLE_MS } from '../../domain/prefetch'

/**
 * Code the page does not need yet (spec §9: it waits for idle time), loaded once the page has been
 * idle for a while (LINK_PREFETCH_IDLE_MS, then an idle callback; without requestIdleCallback,
 * Safari, right after the delay): the footer, the next step's code, the service worker's
 * registration. Off the first screen's network, so out of its budget (tests/e2e/budget.spec.ts).
 */
export function loadWhenIdle<T>(load: () => Promise<T>): Promise<T> {
  return new Promise<void>((resolve) =>
    setTimeout(() => {
      if (typeof requestIdleCallback === 'function') requestIdleCallback(() => resolve())
      else resolve()
    }, LINK_PREFETCH_IDLE_MS),
  ).then(load)
}
