import { contentInAnOrder } from '../order/reads.ts'
import type { Database } from '../platform/db/client.ts'
import type { Logger } from '../platform/log.ts'
import { deleteOldJobs, deleteUnorderedContent, deleteUnusedUploads } from './repo.ts'
import { type ContentStorage, stillOf } from './storage.ts'

// Content nobody ordered does not live for ever: a shopper's photo, the shouts made of it and the
// jobs that made them are deleted UNORDERED_CONTENT_TTL_HOURS after they were made, rows and files
// (the folder or the bucket). What an order names is kept. Rows go first, then files: a crash
// between leaves a file no row names (never a row naming a missing file).

/** Rows deleted per statement: a long backlog is taken in short transactions. */
const BATCH = 200

export type ContentLifetimeDeps = {
  database: Database
  storage: ContentStorage
  log: Logger
  /** UNORDERED_CONTENT_TTL_HOURS in milliseconds. */
  unorderedTtlMs: number
}

export function createContentLifetime(deps: ContentLifetimeDeps) {
  const { database: db, storage, log } = deps
  const removeFiles = async (names: (string | null)[]) => {
    for (const name of names) {
      if (name) await storage.remove(name).catch(() => undefined)
    }
  }
  return {
    /** Deletes what no order names and is older than its lifetime; answers how much went. */
    async sweepUnordered(nowMs: number): Promise<{ contents: number; uploads: number }> {
      const cutoff = nowMs - deps.unorderedTtlMs
      let contents = 0
      let uploads = 0
      for (;;) {
        const gone = await deleteUnorderedContent(db, cutoff, BATCH, contentInAnOrder)
        await removeFiles(
          gone.flatMap((row) =>
            row.type === 'video' ? [row.fileName, stillOf(row.fileName)] : [row.fileName],
          ),
        )
        contents += gone.length
        if (gone.length < BATCH) break
      }
      for (;;) {
        const gone = await deleteUnusedUploads(db, cutoff, BATCH)
        await removeFiles(gone.map((row) => row.fileName))
        uploads += gone.length
        if (gone.length < BATCH) break
      }
      await deleteOldJobs(db, cutoff)
      if (contents + uploads > 0) log.info('unordered content deleted', { contents, uploads })
      return { contents, uploads }
    },
  }
}
