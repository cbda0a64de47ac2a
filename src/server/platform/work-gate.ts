// A bound on costly work in this process: at most `running` tasks at once and `waiting` more in
// line; past that the caller is told at once rather than queued without end. Made for argon2 (each
// hash or check takes 19 MiB and two passes on libuv's four threads, which also serve file reads,
// compression and sharp): a flood of sign-ins then costs a bounded amount of memory and threads, and
// the rest of the shop keeps its share.

export type Gated<T> = { readonly ok: true; readonly value: T } | { readonly ok: false }

export type WorkGate = {
  /** Runs the task when a place is free (waiting in line for one); `{ok: false}` when the line is full. */
  run<T>(task: () => Promise<T>): Promise<Gated<T>>
  /** Tasks running and waiting now. */
  load(): { running: number; waiting: number }
}

export function createWorkGate(limits: { running: number; waiting: number }): WorkGate {
  let running = 0
  const line: (() => void)[] = []
  return {
    load: () => ({ running, waiting: line.length }),
    async run(task) {
      if (running >= limits.running) {
        if (line.length >= limits.waiting) return { ok: false }
        // the place is handed over by the task that ends, so `running` never passes the bound
        await new Promise<void>((resolve) => line.push(resolve))
      } else {
        running++
      }
      try {
        return { ok: true, value: await task() }
      } finally {
        const next = line.shift()
        if (next) next()
        else running--
      }
    },
  }
}
