import {
  bigint,
  boolean,
  doublePrecision,
  integer,
  jsonb,
  pgTable,
  text,
  timestamp,
} from 'drizzle-orm/pg-core'

// Drizzle's view of migrations/0002_content.sql and 0003_upload_flags.sql (the SQL file is the source of truth for the database).

export type ContentKind = 'photo' | 'video'
export type UploadStatus = 'processing' | 'ready' | 'failed'
export type ContentJobStatus = 'queued' | 'running' | 'done' | 'failed'

export const contentUploads = pgTable('content_uploads', {
  id: text('id').primaryKey(),
  kind: text('kind').$type<ContentKind>().notNull(),
  format: text('format').notNull(),
  status: text('status').$type<UploadStatus>().notNull(),
  fileName: text('file_name'),
  mimeType: text('mime_type'),
  widthPx: integer('width_px'),
  heightPx: integer('height_px'),
  durationSeconds: doublePrecision('duration_seconds'),
  sizeBytes: bigint('size_bytes', { mode: 'number' }),
  error: text('error'),
  // migrations/0003_upload_flags.sql: the upload's own moderation verdict (videos: sampled frames).
  flagged: boolean('flagged').notNull().default(false),
  flagReasons: jsonb('flag_reasons').$type<string[]>().notNull().default([]),
  createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
  updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
})

export type GenerationTexts = { buyerName: string; recipientName: string; multilineMessage: string }

export const generatedContent = pgTable('generated_content', {
  key: text('key').primaryKey(),
  url: text('url').notNull(),
  type: text('type').$type<ContentKind>().notNull(),
  widthPx: integer('width_px').notNull(),
  heightPx: integer('height_px').notNull(),
  generatorId: text('generator_id').notNull(),
  deviceId: text('device_id').notNull(),
  eventSlug: text('event_slug').notNull(),
  uploadId: text('upload_id'),
  flagged: boolean('flagged').notNull().default(false),
  flagReasons: jsonb('flag_reasons').$type<string[]>().notNull().default([]),
  fileName: text('file_name').notNull(),
  durationSeconds: doublePrecision('duration_seconds'),
  request: jsonb('request').$type<GenerationTexts>().notNull(),
  createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
})

export const contentJobs = pgTable('content_jobs', {
  id: text('id').primaryKey(),
  publicToken: text('public_token').notNull().unique(),
  kind: text('kind').notNull(),
  status: text('status').$type<ContentJobStatus>().notNull().default('queued'),
  payload: jsonb('payload').$type<Record<string, unknown>>().notNull(),
  resultKey: text('result_key'),
  error: text('error'),
  attempts: integer('attempts').notNull().default(0),
  createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
  startedAt: timestamp('started_at', { withTimezone: true }),
  completedAt: timestamp('completed_at', { withTimezone: true }),
})
