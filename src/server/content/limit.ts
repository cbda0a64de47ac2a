// A small counting semaphore. Processing photos and rendering billboards use the CPU and tens to
// hundreds of MB each; on a 2-core machine running more than two at once only
// adds memory and makes every other request slower, so the rest wait their turn.

export type Limiter = <T>(task: () => Promise<T>) => Promise<T>

export function createLimiter(concurrency: number): Limiter {
  let active = 0
  const waiting: (() => void)[] = []
  const release = () => {
    active--
    waiting.shift()?.()
  }
  return async (task) => {
    if (active >= concurrency) await new Promise<void>((resolve) => waiting.push(resolve))
    active++
    try {
      return await task()
    } finally {
      release()
    }
  }
}

/** Shared by photo processing and rendering: both are CPU- and memory-heavy image work. */
export const imageWork = createLimiter(2)
