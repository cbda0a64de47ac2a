import { mkdirSync, readdirSync, rmSync, statfsSync, statSync } from 'node:fs'
import { join } from 'node:path'

// The suites' temporary files in memory. Every test server starts on a copy of a migrated embedded
// database (about 40 MB in a thousand files) and removes it when it stops: on this machine's disk the
// removal alone took most of a second of the test's own thread, blocked on the disk, for each of the
// suite's hundreds of servers. On a tmpfs the same copy and removal cost a few milliseconds. Both the
// Vitest and the Playwright configurations call this before anything starts, so their workers and
// servers inherit TMPDIR; TEST_TMPDIR=disk keeps the system's, and a tmpfs with less than 4 GB free
// is not used.

const MEMORY = '/dev/shm'
const ROOT = join(MEMORY, 'shouts-tests')
const ENOUGH_BYTES = 4 * 1024 ** 3
/** What a run killed halfway left behind is removed by a later run once it is this old. */
const STALE_MS = 12 * 60 * 60 * 1000

export function keepTemporaryFilesInMemory(now = Date.now()): string | null {
  if (process.env.TEST_TMPDIR === 'disk') return null
  if (process.env.TMPDIR?.startsWith(ROOT)) return process.env.TMPDIR
  try {
    const space = statfsSync(MEMORY)
    if (space.bavail * space.bsize < ENOUGH_BYTES) return null
    mkdirSync(ROOT, { recursive: true })
  } catch {
    return null
  }
  for (const name of readdirSync(ROOT)) {
    const path = join(ROOT, name)
    try {
      if (now - statSync(path).mtimeMs > STALE_MS) rmSync(path, { recursive: true, force: true })
    } catch {
      // another run removed it first
    }
  }
  process.env.TMPDIR = ROOT
  return ROOT
}
