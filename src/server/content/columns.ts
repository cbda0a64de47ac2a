import { columnMap } from '../platform/db/columns.ts'
import type { ContentJobRow, GeneratedRow, UploadRow } from './repo.ts'

// The content tables' columns (migrations 0002, 0003 onwards) as repo.ts's rows name them: the
// select lists, `returning` lists and the generated content's insert are written from these.

export const UPLOADS = columnMap<UploadRow>('content_uploads', {
  id: 'id',
  kind: 'kind',
  format: 'format',
  status: 'status',
  fileName: 'file_name',
  mimeType: 'mime_type',
  widthPx: 'width_px',
  heightPx: 'height_px',
  durationSeconds: 'duration_seconds',
  sizeBytes: 'size_bytes',
  error: { column: 'error', json: true },
  flagged: 'flagged',
  flagReasons: { column: 'flag_reasons', json: true },
})

export const GENERATED = columnMap<GeneratedRow>('generated_content', {
  key: 'key',
  url: 'url',
  type: 'type',
  widthPx: 'width_px',
  heightPx: 'height_px',
  generatorId: 'generator_id',
  deviceId: 'device_id',
  eventSlug: 'event_slug',
  uploadId: 'upload_id',
  fileName: 'file_name',
  durationSeconds: { column: 'duration_seconds', cast: 'float8' },
  request: { column: 'request', json: true },
  flagged: 'flagged',
  flagReasons: { column: 'flag_reasons', json: true },
})

export const JOBS = columnMap<ContentJobRow>('content_jobs', {
  id: 'id',
  publicToken: 'public_token',
  kind: 'kind',
  status: 'status',
  payload: { column: 'payload', json: true },
  resultKey: 'result_key',
  error: { column: 'error', json: true },
  attempts: 'attempts',
  outageRetries: 'outage_retries',
  completedAt: 'completed_at',
})
