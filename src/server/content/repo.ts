import { randomBytes } from 'node:crypto'
import type { ContentType } from '../../contract/index.ts'
import type { Problem } from '../../contract/problems.ts'
import type { Database, Queryable } from '../platform/db/client.ts'
import { at, json, type Sql, sql } from '../platform/db/sql.ts'
import type { LeaseSettings } from '../platform/lease.ts'
import { GENERATED, JOBS, UPLOADS } from './columns.ts'
import type { ProcessedFile } from './processors.ts'
import { newId } from './storage.ts'

// The content tables (migrations 0002, 0003): content_uploads, generated_content, content_jobs. The
// templates, billboards and events a generation checks are the catalogue's (catalogue/reads.ts).

// ---------- uploads ----------

export type UploadStatus = 'processing' | 'ready' | 'failed'

export type UploadRow = {
  id: string
  kind: ContentType
  format: string
  status: UploadStatus
  fileName: string | null
  mimeType: string | null
  widthPx: number | null
  heightPx: number | null
  durationSeconds: number | null
  sizeBytes: number | null
  /** why it failed: its problem (migration 0010: stored as {code, params}, never English) */
  error: Problem | null
  /** migrations/0003: the upload's own moderation verdict (videos: sampled frames). */
  flagged: boolean
  flagReasons: string[]
}

const UPLOAD_COLUMNS = UPLOADS.select()

export async function uploadById(db: Queryable, id: string): Promise<UploadRow | null> {
  const [row] = await db.query(
    sql<UploadRow>`select ${UPLOAD_COLUMNS} from content_uploads where id = ${id}`,
  )
  return row ?? null
}

/** A new upload: ready with its file, or processing (a background job makes the file). */
export async function insertUpload(
  db: Queryable,
  upload: { id: string; kind: ContentType; format: string; file: ProcessedFile | null },
): Promise<UploadRow> {
  const f = upload.file
  const [row] = await db.query(sql<UploadRow>`
    insert into content_uploads (id, kind, format, status, file_name, mime_type, width_px,
      height_px, duration_seconds, size_bytes)
    values (${upload.id}, ${upload.kind}, ${upload.format}, ${f ? 'ready' : 'processing'},
      ${f?.fileName ?? null}, ${f?.mimeType ?? null}, ${f?.widthPx ?? null}::int,
      ${f?.heightPx ?? null}::int, ${f?.durationSeconds ?? null}::float8,
      ${f?.sizeBytes ?? null}::bigint)
    returning ${UPLOAD_COLUMNS}`)
  if (!row) throw new Error('The upload was not stored')
  return row
}

export async function markUploadReady(db: Queryable, id: string, f: ProcessedFile): Promise<void> {
  await db.query(sql`
    update content_uploads set status = 'ready', file_name = ${f.fileName},
      mime_type = ${f.mimeType}, width_px = ${f.widthPx}, height_px = ${f.heightPx},
      duration_seconds = ${f.durationSeconds}::float8, size_bytes = ${f.sizeBytes},
      updated_at = now()
    where id = ${id}`)
}

export async function markUploadFailed(db: Queryable, id: string, error: Problem): Promise<void> {
  await db.query(sql`
    update content_uploads set status = 'failed', error = ${json(error)}::jsonb, updated_at = now()
    where id = ${id}`)
}

/** spec §5: a flag refuses nothing; the reasons are kept for the reviewer. */
export async function flagUpload(db: Queryable, id: string, reasons: string[]): Promise<void> {
  await db.query(sql`
    update content_uploads set flagged = true, flag_reasons = ${json(reasons)}::jsonb
    where id = ${id}`)
}

// ---------- generated content ----------

export type GenerationTexts = { buyerName: string; recipientName: string; multilineMessage: string }

export type GeneratedRow = {
  key: string
  url: string
  type: ContentType
  widthPx: number
  heightPx: number
  generatorId: string
  deviceId: string
  eventSlug: string
  uploadId: string | null
  fileName: string
  durationSeconds: number | null
  /** The texts the shopper typed, kept for moderation and for support. */
  request: GenerationTexts
  flagged: boolean
  flagReasons: string[]
}

export async function insertGeneratedContent(db: Queryable, row: GeneratedRow): Promise<void> {
  await db.query(sql`insert into ${GENERATED.insert(row)}`)
}

const ENTRY_FIELDS = [
  'url',
  'type',
  'widthPx',
  'heightPx',
  'durationSeconds',
  'flagged',
  'fileName',
] as const

export type ContentEntryRow = Pick<GeneratedRow, (typeof ENTRY_FIELDS)[number]>

export async function generatedByKey(db: Queryable, key: string): Promise<ContentEntryRow | null> {
  const [row] = await db.query(sql<ContentEntryRow>`
    select ${GENERATED.select({ fields: ENTRY_FIELDS })}
    from generated_content where key = ${key}`)
  return row ?? null
}

// ---------- jobs (job-queue.ts) ----------

export type ContentJobStatus = 'queued' | 'running' | 'done' | 'failed'

export type ContentJobRow = {
  id: string
  publicToken: string
  kind: string
  status: ContentJobStatus
  payload: Record<string, unknown>
  resultKey: string | null
  /** why it failed: its problems (a request may name several wrong things) */
  error: Problem[] | null
  attempts: number
  /** how many times in a row it met an outage and was put off (migration 0037) */
  outageRetries: number
  completedAt: Date | null
}

const JOB_COLUMNS = JOBS.select()

/** Who asked for a job and the upload it uses (migration 0018): both null for jobs of the shop. */
export type JobOwner = { clientKey: string | null; uploadId: string | null }

export async function insertJob(
  db: Queryable,
  kind: string,
  payload: Record<string, unknown>,
  owner: JobOwner = { clientKey: null, uploadId: null },
): Promise<ContentJobRow> {
  const [job] = await db.query(sql<ContentJobRow>`
    insert into content_jobs (id, public_token, kind, payload, client_key, upload_id)
    values (${newId()}, ${randomBytes(24).toString('base64url')}, ${kind}, ${json(payload)}::jsonb,
      ${owner.clientKey}::text, ${owner.uploadId}::text)
    returning ${JOB_COLUMNS}`)
  if (!job) throw new Error('The job was not stored')
  return job
}

/**
 * Holds the client's job lock until the transaction ends, so that two instances counting the same
 * client's jobs at once count one after the other (PGlite has advisory locks too).
 */
export async function lockClientJobs(tx: Queryable, clientKey: string): Promise<void> {
  await tx.query(sql`select pg_advisory_xact_lock(hashtext(${`content-jobs:${clientKey}`}))`)
}

/** How many jobs the client has queued or running, and whether the upload is in one already. */
export async function unfinishedJobs(
  db: Queryable,
  owner: JobOwner,
): Promise<{ ofClient: number; ofUpload: number }> {
  const [row] = await db.query(sql<{ ofClient: number; ofUpload: number }>`
    select
      (select count(*)::int from content_jobs
        where client_key = ${owner.clientKey}::text and status in ('queued', 'running'))
        as "ofClient",
      (select count(*)::int from content_jobs
        where upload_id = ${owner.uploadId}::text and status in ('queued', 'running'))
        as "ofUpload"`)
  return row ?? { ofClient: 0, ofUpload: 0 }
}

export async function jobByPublicToken(
  db: Queryable,
  token: string,
): Promise<ContentJobRow | null> {
  const [job] = await db.query(
    sql<ContentJobRow>`select ${JOB_COLUMNS} from content_jobs where public_token = ${token}`,
  )
  return job ?? null
}

/** A lease's end, by the database's clock. */
const leaseEnd = (lease: LeaseSettings) =>
  sql`now() + ${lease.leaseMs}::int * interval '1 millisecond'`

/**
 * The next job to run, now this instance's under a lease (one attempt more): a queued job, or a
 * running one whose lease ended (its instance died). Clients are served in turn: the job of the
 * client with the fewest jobs running goes first, the oldest among equals, so one client's backlog
 * never holds every lane. Skipped while another instance claims
 * it (SKIP LOCKED), so two instances never take the same job.
 */
export async function claimJob(db: Queryable, lease: LeaseSettings): Promise<ContentJobRow | null> {
  const [job] = await db.query(sql<ContentJobRow>`
    update content_jobs set status = 'running', started_at = now(), attempts = attempts + 1,
      lease_owner = ${lease.owner}, lease_expires_at = ${leaseEnd(lease)}
    where id = (select waiting.id from content_jobs waiting
      where (waiting.status = 'queued'
          and (waiting.next_attempt_at is null or waiting.next_attempt_at <= now()))
        or (waiting.status = 'running'
          and (waiting.lease_expires_at is null or waiting.lease_expires_at < now()))
      order by (select count(*) from content_jobs mine
          where mine.status = 'running' and mine.lease_expires_at >= now()
            and mine.client_key = waiting.client_key),
        waiting.created_at
      limit 1
      for update skip locked)
    returning ${JOB_COLUMNS}`)
  return job ?? null
}

/** Renews this instance's lease on a running job; false when it is no longer this instance's. */
export async function renewJobLease(
  db: Queryable,
  id: string,
  lease: LeaseSettings,
): Promise<boolean> {
  const rows = await db.query(sql`
    update content_jobs set lease_expires_at = ${leaseEnd(lease)}
    where id = ${id} and status = 'running' and lease_owner = ${lease.owner}
    returning id`)
  return rows.length > 0
}

/** The job's outcome, written only while this instance holds it: a job is finished once. */
export async function finishJob(
  db: Queryable,
  id: string,
  owner: string,
  outcome: { status: 'done'; resultKey: string | null } | { status: 'failed'; error: Problem[] },
): Promise<boolean> {
  const rows = await db.query(sql`
    update content_jobs set status = ${outcome.status},
      result_key = ${outcome.status === 'done' ? outcome.resultKey : null}::text,
      error = ${outcome.status === 'failed' ? json(outcome.error) : null}::jsonb, completed_at = now(),
      lease_owner = null, lease_expires_at = null
    where id = ${id} and status = 'running' and lease_owner = ${owner}
    returning id`)
  return rows.length > 0
}

/** A job cut short by a shutdown goes back to the queue as it was (its lease handed back). */
export async function requeueJob(
  db: Queryable,
  id: string,
  owner: string,
  attempts: number,
): Promise<void> {
  await db.query(sql`
    update content_jobs set status = 'queued', attempts = ${attempts}, started_at = null,
      lease_owner = null, lease_expires_at = null
    where id = ${id} and status = 'running' and lease_owner = ${owner}`)
}

/**
 * A job that met an outage goes back to the queue, not to run before `delayMs` from now; its
 * attempt is not counted (`attempts` as it was before the claim), its outages in a row are.
 */
export async function deferJob(
  db: Queryable,
  id: string,
  owner: string,
  attempts: number,
  delayMs: number,
): Promise<void> {
  await db.query(sql`
    update content_jobs set status = 'queued', attempts = ${attempts}, started_at = null,
      lease_owner = null, lease_expires_at = null, outage_retries = outage_retries + 1,
      next_attempt_at = now() + ${delayMs}::int * interval '1 millisecond'
    where id = ${id} and status = 'running' and lease_owner = ${owner}`)
}

/**
 * Ends every running job's lease at once. Only for the embedded database, which one process opens at
 * a time: whatever it finds running was left by a process that is gone.
 */
export async function expireJobLeases(db: Queryable): Promise<void> {
  await db.query(sql`update content_jobs set lease_expires_at = null where status = 'running'`)
}

// ---------- lifetimes (lifetime.ts) ----------

/**
 * Deletes up to `batch` generated contents made before the cutoff that no order names, with the
 * finished jobs that made them; answers their files. An unfinished job's content is kept.
 */
export async function deleteUnorderedContent(
  db: Database,
  cutoffMs: number,
  batch: number,
  inAnOrder: (key: Sql) => Sql,
): Promise<{ fileName: string; type: ContentType }[]> {
  return db.transaction(async (tx) => {
    const gone = await tx.query(sql<{ key: string }>`
      select g.key from generated_content g
      where g.created_at < ${at(cutoffMs)}
        and not ${inAnOrder(sql`g.key`)}
      order by g.created_at
      limit ${batch}
      for update skip locked`)
    if (gone.length === 0) return []
    // Looked at again by a statement of its own, which sees every order committed since the first
    // began: an order committed in between names its content, and one still to commit waits for these
    // locks and then finds its content gone (order/repo.ts insertOrder refuses it).
    const still = await tx.query(sql<{ key: string }>`
      select g.key from generated_content g
      where g.key = any(${gone.map((row) => row.key)}::text[]) and not ${inAnOrder(sql`g.key`)}`)
    const keys = still.map((row) => row.key)
    if (keys.length === 0) return []
    await tx.query(sql`delete from content_jobs where result_key = any(${keys}::text[])`)
    return tx.query(sql<{ fileName: string; type: ContentType }>`
      delete from generated_content where key = any(${keys}::text[])
      returning ${GENERATED.select({ fields: ['fileName', 'type'] })}`)
  })
}

/**
 * Deletes up to `batch` uploads made before the cutoff that no generated content uses and no
 * unfinished job processes; answers their files.
 */
export async function deleteUnusedUploads(
  db: Queryable,
  cutoffMs: number,
  batch: number,
): Promise<{ fileName: string | null }[]> {
  return db.query(sql<{ fileName: string | null }>`
    delete from content_uploads where id in (
      select u.id from content_uploads u
      where u.created_at < ${at(cutoffMs)}
        and not exists (select 1 from generated_content g where g.upload_id = u.id)
        and not exists (select 1 from content_jobs j
          where j.status in ('queued', 'running')
            and (j.upload_id = u.id or j.payload ->> 'uploadId' = u.id))
      order by u.created_at
      limit ${batch}
      for update skip locked)
    returning ${UPLOADS.select({ fields: ['fileName'] })}`)
}

/** Finished jobs older than the cutoff whose content is gone or that made none. */
export async function deleteOldJobs(db: Queryable, cutoffMs: number): Promise<number> {
  const rows = await db.query(sql`
    delete from content_jobs
    where status in ('done', 'failed') and result_key is null
      and coalesce(completed_at, created_at) < ${at(cutoffMs)}
    returning id`)
  return rows.length
}
