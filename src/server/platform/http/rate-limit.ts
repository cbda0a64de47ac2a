// A fixed-window counter per client address, in memory: enough for one server process. issue 3:
// promo lookups are limited so that codes cannot be guessed by trying many.
export type RateLimiter = {
  take(key: string, nowMs?: number): { allowed: boolean; retryAfterS: number }
}

export function createRateLimiter(limit: number, windowMs: number): RateLimiter {
  const windows = new Map<string, { start: number; count: number }>()
  let lastSweep = 0
  return {
    take(key, nowMs = Date.now()) {
      // Forget finished windows now and then, so the map cannot grow without bound.
      if (nowMs - lastSweep > windowMs) {
        for (const [k, w] of windows) if (nowMs - w.start >= windowMs) windows.delete(k)
        lastSweep = nowMs
      }
      let w = windows.get(key)
      if (!w || nowMs - w.start >= windowMs) {
        w = { start: nowMs, count: 0 }
        windows.set(key, w)
      }
      w.count += 1
      return {
        allowed: w.count <= limit,
        retryAfterS: Math.max(1, Math.ceil((w.start + windowMs - nowMs) / 1000)),
      }
    },
  }
}
