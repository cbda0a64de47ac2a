/**
 * Resolves once `ms` have passed and then the browser is idle (spec §9: what is not needed yet waits
 * for idle time). Without requestIdleCallback (Safari), right after the delay.
 */
export function afterIdle(ms: number): Promise<void> {
  return new Promise((resolve) =>
    setTimeout(() => {
      if (typeof requestIdleCallback === 'function') requestIdleCallback(() => resolve())
      else resolve()
    }, ms),
  )
}
