import { contentInAnOrder } from '../order/reads.ts'
import type { Database } from '../platform/db/client.ts'
import { sql } from '../platform/db/sql.ts'
import type { Logger } from '../platform/log.ts'
import { GENERATED, UPLOADS } from './columns.ts'
import {
  deleteOldJobs,
  deleteUnorderedContent,
  deleteUnusedUploads,
  type GeneratedRow,
  type UploadRow,
} from './repo.ts'
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

    /**
     * Deletes the content under `key` and the upload it was made of, rows then files, when no order
     * but `orderGuid` (being forgotten) still keeps its data and names it; may run twice.
     */
    async forgetOrderContent(key: string, orderGuid: string): Promise<void> {
      const files = await db.transaction(async (tx) => {
        const [content] = await tx.query(sql<Pick<GeneratedRow, 'uploadId'>>`
          select ${GENERATED.select({ from: 'g', fields: ['uploadId'] })} from generated_content g
          where g.key = ${key} and not ${contentInAnOrder(sql`g.key`, orderGuid)}
          for update`)
        if (!content) return []
        await tx.query(sql`delete from content_jobs where result_key = ${key}`)
        const gone = await tx.query(sql<Pick<GeneratedRow, 'fileName' | 'type'>>`
          delete from generated_content where key = ${key}
          returning ${GENERATED.select({ fields: ['fileName', 'type'] })}`)
        const upload = content.uploadId
          ? await tx.query(sql<Pick<UploadRow, 'fileName'>>`
              delete from content_uploads u where u.id = ${content.uploadId}
                and not exists (select 1 from generated_content g where g.upload_id = u.id)
                and not exists (select 1 from content_jobs j
                  where j.status in ('queued', 'running')
                    and (j.upload_id = u.id or j.payload ->> 'uploadId' = u.id))
              returning ${UPLOADS.select({ from: 'u', fields: ['fileName'] })}`)
          : []
        return [
          ...gone.flatMap((row) =>
            row.type === 'video' ? [row.fileName, stillOf(row.fileName)] : [row.fileName],
          ),
          ...upload.map((row) => row.fileName),
        ]
      })
      await removeFiles(files)
    },
  }
}
