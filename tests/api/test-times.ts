import { appendFileSync } from 'node:fs'

// Where an API file's time goes (scripts/test-times.ts prints it): with TEST_TIMES_LOG set, each
// server start and stop and each database copy is appended there as a JSON line, with its file.
const LOG = process.env.TEST_TIMES_LOG

export type TimedPhase = 'database' | 'start' | 'stop'

/**
 * The test file that called (read from the stack: this module is also loaded by the end-to-end
 * specs, where Vitest's own state cannot be asked), or '' when none is on it.
 */
export function callingTestFile(): string {
  if (!LOG) return ''
  const stack = new Error().stack ?? ''
  return /(\/[^\s()]*\/tests\/[\w/-]+\.(?:test|spec)\.ts)/.exec(stack)?.[1] ?? ''
}

export async function timed<T>(
  file: string,
  phase: TimedPhase,
  work: () => Promise<T>,
): Promise<T> {
  if (!LOG) return work()
  const started = performance.now()
  try {
    return await work()
  } finally {
    const ms = Math.round(performance.now() - started)
    appendFileSync(LOG, `${JSON.stringify({ file, phase, ms })}\n`)
  }
}
