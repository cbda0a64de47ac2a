// The time background work runs by. The scheduler (scheduler.ts) waits and measures through a Clock,
// so a test hands it a manual clock and moves time itself: no sleeps, nothing flaky under load.

export type Timer = { cancel(): void }

export type Clock = {
  /** Milliseconds since the epoch. */
  now(): number
  /** Calls `fn` once, `ms` from now; a timer never keeps the process alive. */
  after(ms: number, fn: () => void): Timer
}

/** The machine's clock: Date.now and unref'd timers. */
export const systemClock: Clock = {
  now: () => Date.now(),
  after(ms, fn) {
    const handle = setTimeout(fn, ms)
    handle.unref()
    return { cancel: () => clearTimeout(handle) }
  },
}

export type ManualClock = Clock & {
  /**
   * Moves time forward by `ms`, firing the timers that come due, in order (a timer a callback sets
   * fires too when it falls within the step).
   */
  advance(ms: number): void
  /** Timers waiting. */
  pending(): number
}

/** A clock that moves only when told (tests). */
export function createManualClock(startMs = 0): ManualClock {
  let current = startMs
  let nextId = 0
  const timers = new Map<number, { at: number; fn: () => void }>()
  return {
    now: () => current,
    after(ms, fn) {
      const id = nextId++
      timers.set(id, { at: current + Math.max(0, ms), fn })
      return { cancel: () => timers.delete(id) }
    },
    advance(ms) {
      const end = current + ms
      for (;;) {
        let due: [number, { at: number; fn: () => void }] | null = null
        for (const entry of timers) {
          if (entry[1].at <= end && (!due || entry[1].at < due[1].at)) due = entry
        }
        if (!due) break
        timers.delete(due[0])
        current = Math.max(current, due[1].at)
        due[1].fn()
      }
      current = end
    },
    pending: () => timers.size,
  }
}
