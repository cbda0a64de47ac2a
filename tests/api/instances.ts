import { type ChildProcess, spawn } from 'node:child_process'
import { join } from 'node:path'
import { PROJECT_ROOT } from '../../src/server/platform/paths.ts'

// Server instances as child processes: each its own process, so one can be killed with
// SIGKILL mid-work, as a crashed machine would be, while the others go on.

export type Instance = {
  url: string
  pid: number
  /** Resolves with the first JSON line on stdout that has `key` (the lines before it are kept). */
  line<T = Record<string, unknown>>(key: string, timeoutMs?: number): Promise<T>
  /** SIGKILL: no shutdown, no lease handed back. */
  kill(): Promise<void>
  /** SIGTERM: the graceful shutdown; resolves with the exit code. */
  stop(): Promise<number | null>
  /** What it wrote on stderr (for a failing test's message). */
  stderr(): string
}

export async function spawnInstance(
  script: string,
  env: Record<string, string | undefined>,
  args: string[] = [],
): Promise<Instance> {
  const child: ChildProcess = spawn(
    process.execPath,
    ['--import', 'tsx', join(PROJECT_ROOT, script), ...args],
    {
      cwd: PROJECT_ROOT,
      // the suites write from one address far faster than a shopper (the limits are tested apart)
      env: { ...process.env, LOG_LEVEL: 'warn', WRITES_PER_MINUTE: '100000', ...env },
      stdio: ['ignore', 'pipe', 'pipe'],
    },
  )
  const seen: Record<string, unknown>[] = []
  const waiters: { key: string; resolve: (v: Record<string, unknown>) => void }[] = []
  let err = ''
  let buffered = ''
  child.stderr?.on('data', (chunk: Buffer) => {
    err += chunk.toString('utf8')
  })
  child.stdout?.on('data', (chunk: Buffer) => {
    buffered += chunk.toString('utf8')
    for (let nl = buffered.indexOf('\n'); nl >= 0; nl = buffered.indexOf('\n')) {
      const text = buffered.slice(0, nl)
      buffered = buffered.slice(nl + 1)
      let parsed: unknown
      try {
        parsed = JSON.parse(text)
      } catch {
        continue
      }
      if (!parsed || typeof parsed !== 'object') continue
      const record = parsed as Record<string, unknown>
      seen.push(record)
      for (const waiter of [...waiters]) {
        if (waiter.key in record) {
          waiters.splice(waiters.indexOf(waiter), 1)
          waiter.resolve(record)
        }
      }
    }
  })
  const exited = new Promise<number | null>((resolve) =>
    child.once('exit', (code) => resolve(code)),
  )
  const line = <T>(key: string, timeoutMs = 60_000): Promise<T> => {
    const found = seen.find((record) => key in record)
    if (found) return Promise.resolve(found as T)
    return new Promise<T>((resolve, reject) => {
      const timer = setTimeout(
        () =>
          reject(new Error(`no "${key}" from instance ${child.pid} in ${timeoutMs} ms:\n${err}`)),
        timeoutMs,
      )
      const waiter = {
        key,
        resolve: (value: Record<string, unknown>) => {
          clearTimeout(timer)
          resolve(value as T)
        },
      }
      waiters.push(waiter)
      exited.then((code) => {
        if (!waiters.includes(waiter)) return
        clearTimeout(timer)
        reject(new Error(`instance ${child.pid} exited (${code}) before "${key}":\n${err}`))
      })
    })
  }
  const { url } = await line<{ url: string }>('url')
  return {
    url,
    pid: child.pid ?? 0,
    line,
    kill: async () => {
      if (child.exitCode === null && child.signalCode === null) child.kill('SIGKILL')
      await exited
    },
    stop: async () => {
      if (child.exitCode === null && child.signalCode === null) child.kill('SIGTERM')
      return exited
    },
    stderr: () => err,
  }
}

export const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms))

/** Polls `check` until it answers something other than null, or fails after `timeoutMs`. */
export async function until<T>(
  check: () => Promise<T | null>,
  timeoutMs: number,
  what = 'the condition',
): Promise<T> {
  const deadline = Date.now() + timeoutMs
  for (;;) {
    const value = await check()
    if (value !== null) return value
    if (Date.now() > deadline) throw new Error(`${what} did not hold within ${timeoutMs} ms`)
    await sleep(100)
  }
}
