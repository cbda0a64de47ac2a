import { copyFileSync, mkdtempSync, readdirSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { type Database, openDatabase } from '../../src/server/platform/db/client.ts'
import { applyMigrations, MIGRATIONS_DIR } from '../../src/server/platform/db/migrate.ts'
import { sql } from '../../src/server/platform/db/sql.ts'
import { BACKENDS, freshDataDir, freshPostgres } from './helpers.ts'

// The shop stored its failures in English (an upload's and a content job's error). Migration 0010
// reads them back into problems on an existing database: rows written in the old shape, then the
// migration, then what is stored.

for (const backend of BACKENDS) {
  describe(`stored failures become problems (${backend})`, () => {
    let db: Database
    let dataDir: string
    let dropPostgres: (() => Promise<void>) | null = null

    beforeAll(async () => {
      dataDir = await freshDataDir()
      const postgres = backend === 'postgres' ? await freshPostgres() : null
      dropPostgres = postgres?.drop ?? null
      db = await openDatabase({ dataDir, databaseUrl: postgres?.url })
      // the schema as it was before 0010
      const before = mkdtempSync(join(tmpdir(), 'shouts-migrations-'))
      for (const name of readdirSync(MIGRATIONS_DIR).filter((n) => n < '0010')) {
        copyFileSync(join(MIGRATIONS_DIR, name), join(before, name))
      }
      await applyMigrations(db, before)
      rmSync(before, { recursive: true, force: true })
    })
    afterAll(async () => {
      await db?.close()
      await dropPostgres?.()
      if (dataDir) rmSync(dataDir, { recursive: true, force: true })
    })

    it("reads an upload's and a job's stored failure back into its problem, and keeps a text no template makes", async () => {
      await db.query(sql`
        insert into content_uploads (id, kind, format, status, error) values
          ('upload-1', 'photo', 'png', 'failed', 'The file is too large. The limit is 15 MB.'),
          ('upload-2', 'video', 'mp4', 'failed', 'ffmpeg could not read frame 3 of stream 0'),
          ('upload-3', 'video', 'mp4', 'failed',
            'This file claims to be a mp4 video but is also HTML or script; it was refused.')`)
      await db.query(sql`
        insert into content_jobs (id, public_token, kind, payload, status, error) values
          ('job-1', 'token-1', 'generate', '{}', 'failed',
            'contentGenerationRequest.generatorId: unknown template "hearts"'),
          ('job-2', 'token-2', 'generate', '{}', 'failed',
            'The video could not be processed: This video could not be read: ffprobe failed. Upload another.')`)

      expect(await applyMigrations(db)).toContain('0010_problems.ts')

      const uploads = await db.query(sql<{ error: unknown }>`
        select error from content_uploads order by id`)
      expect(uploads.map((u) => u.error)).toEqual([
        { code: 'upload_too_large', params: { mb: 15 } },
        { code: 'plain_text', params: { text: 'ffmpeg could not read frame 3 of stream 0' } },
        { code: 'upload_not_only_video', params: { format: 'mp4', other: 'markup' } },
      ])
      const jobs = await db.query(
        sql<{ error: unknown }>`select error from content_jobs order by id`,
      )
      expect(jobs.map((j) => j.error)).toEqual([
        [{ code: 'template_unknown', params: { generatorId: 'hearts' } }],
        [
          {
            code: 'upload_failed',
            params: {
              kind: 'video',
              reason: { code: 'video_unreadable', params: { reason: 'ffprobe failed' } },
            },
          },
        ],
      ])
      // applied once: a second start changes nothing
      expect(await applyMigrations(db)).toEqual([])
    })
  })
}
