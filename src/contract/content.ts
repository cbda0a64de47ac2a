import * as v from 'valibot'
import { DEFAULT_TEMPLATE_MODE } from '../domain/content'
import {
  CONTENT_TYPES,
  ContentTypeSchema,
  EpochMsSchema,
  freeText,
  nameText,
  ProblemSchema,
  positiveInt,
  queryList,
  queryNumber,
  text,
} from './common'
import { endpoint } from './endpoint'
import type { ProblemCode } from './problems'

// api-v1 "Content": templates, uploads, generation (sync and async), the async job, content entries
// and the stored files.

export { DEFAULT_TEMPLATE_MODE }

export const TemplateSchema = v.object({
  id: text(),
  name: text(),
  /** Its name in the shop's languages where the catalogue gives one; `name` elsewhere. */
  names: v.optional(
    v.object({ en: v.optional(text()), fr: v.optional(text()), de: v.optional(text()) }),
    {},
  ),
  types: v.pipe(v.array(ContentTypeSchema), v.minLength(1)),
  mode: v.optional(text(), DEFAULT_TEMPLATE_MODE),
  widthPx: positiveInt(),
  heightPx: positiveInt(),
  previewImageUrl: text(2000),
  // spec §3: its presence marks a video template
  examplePreviewVideoUrl: v.nullable(text(2000)),
  videoMaxLengthSeconds: v.nullable(v.pipe(v.number(), v.gtValue(0))),
})
export type Template = v.InferOutput<typeof TemplateSchema>

/** A template's name in a language: the catalogue's name for it, else its `name`. */
export const templateNameIn = (
  template: Pick<Template, 'name'> & { names?: Template['names'] },
  locale: string,
): string => template.names?.[locale as keyof Template['names']] ?? template.name

export const GeneratorsResponseSchema = v.object({ generators: v.array(TemplateSchema) })
export type GeneratorsResponse = v.InferOutput<typeof GeneratorsResponseSchema>

export const GeneratorsQuerySchema = v.object({
  types: queryList(ContentTypeSchema, [...CONTENT_TYPES]),
  widthPx: queryNumber(1, 100_000),
  heightPx: queryNumber(1, 100_000),
  modes: queryList(text(), [DEFAULT_TEMPLATE_MODE]),
})
export type GeneratorsQuery = v.InferOutput<typeof GeneratorsQuerySchema>

export const UPLOAD_STATUSES = ['processing', 'ready', 'failed'] as const
export const UploadSchema = v.object({
  id: text(),
  kind: ContentTypeSchema,
  status: v.picklist(UPLOAD_STATUSES),
  url: v.nullable(text(2000)),
  error: v.nullable(v.string()),
  // the problems `error` says in English (the app translates these); optional for older servers
  problems: v.optional(v.array(ProblemSchema)),
  // spec §5: the upload's own moderation verdict (a video's sampled frames); optional for older servers.
  flagged: v.optional(v.boolean()),
})
export type Upload = v.InferOutput<typeof UploadSchema>

/** The upload form field naming the template an upload is for (its videoMaxLengthSeconds). */
export const UPLOAD_TEMPLATE_FIELD = 'generatorId'
/** The upload form field holding the file; it comes after the template field. */
export const UPLOAD_FILE_FIELD = 'file'

export const BUYER_NAME_MAX_LENGTH = 50
export const RECIPIENT_NAME_MAX_LENGTH = 50
export const MESSAGE_MAX_LENGTH = 280

export const ContentGenerationRequestSchema = v.strictObject({
  generatorId: text(),
  deviceId: text(),
  eventSlug: text(),
  uploadId: v.nullable(text()),
  buyerName: nameText(BUYER_NAME_MAX_LENGTH),
  recipientName: nameText(RECIPIENT_NAME_MAX_LENGTH),
  multilineMessage: freeText(MESSAGE_MAX_LENGTH),
})
export type ContentGenerationRequest = v.InferOutput<typeof ContentGenerationRequestSchema>

export const GenerateRequestSchema = v.strictObject({
  contentGenerationRequest: ContentGenerationRequestSchema,
  async: v.boolean(),
})
export type GenerateRequest = v.InferOutput<typeof GenerateRequestSchema>

export const GeneratedContentSchema = v.object({
  key: text(),
  url: text(2000),
  type: ContentTypeSchema,
  widthPx: positiveInt(),
  heightPx: positiveInt(),
  // spec §5: inappropriate content is flagged (the app opens the ProhibitedContent modal; the order is
  // placed UnderReview). Optional: absent means not flagged.
  flagged: v.optional(v.boolean()),
})
export type GeneratedContent = v.InferOutput<typeof GeneratedContentSchema>

export const GenerateResponseSchema = v.object({
  success: v.boolean(),
  generatedContent: v.nullable(GeneratedContentSchema),
  error: v.nullable(v.string()),
  problems: v.optional(v.array(ProblemSchema)),
  asyncPublicToken: v.nullable(v.string()),
})
export type GenerateResponse = v.InferOutput<typeof GenerateResponseSchema>

export const DaemonStatusSchema = v.object({
  error: v.nullable(v.string()),
  problems: v.optional(v.array(ProblemSchema)),
  completedEpochMS: v.nullable(EpochMsSchema),
  link: v.nullable(v.string()),
})
export type DaemonStatus = v.InferOutput<typeof DaemonStatusSchema>

export const DaemonResultSchema = v.object({ newKey: text() })
export type DaemonResult = v.InferOutput<typeof DaemonResultSchema>

export const ContentEntrySchema = v.object({
  url: text(2000),
  type: ContentTypeSchema,
  widthPx: positiveInt(),
  heightPx: positiveInt(),
  durationSeconds: v.nullable(v.pipe(v.number(), v.minValue(0))),
  // spec §5, as in GeneratedContentSchema.
  flagged: v.optional(v.boolean()),
})
export type ContentEntry = v.InferOutput<typeof ContentEntrySchema>

export const ContentEntriesSchema = v.object({ entries: v.array(ContentEntrySchema) })
export type ContentEntries = v.InferOutput<typeof ContentEntriesSchema>

// ---------- endpoints ----------

/**
 * What an upload can be refused with while its request runs, the shop's and an advertiser's alike:
 * its body, its size, its type, a photo's processing, a video's checks before the answer. What only
 * the background processing of a video finds (a transcode that fails) is not a refusal: the upload's
 * status answers it as data (GET /content/uploads/{id}, `problems`).
 */
export const UPLOAD_REFUSALS = [
  'upload_not_multipart',
  'upload_malformed',
  'upload_multipart_invalid',
  'upload_read_failed',
  'upload_no_file',
  'upload_empty',
  'upload_template_unknown',
  'upload_too_large',
  'upload_wrong_type',
  'image_too_large',
  'image_too_many_pixels',
  'image_pixel_limit',
  'image_unreadable',
  'image_wrong_shape',
  'video_wrong_type',
  'video_other_file',
  'upload_not_only_video',
  'video_polyglot',
  'upload_sound_only',
  'video_unreadable',
  'video_empty',
  'video_too_large',
  'video_frame_rate_too_high',
  'video_pixel_rate_too_high',
  'storage_full',
] as const satisfies readonly ProblemCode[]
export type UploadRefusalCode = (typeof UPLOAD_REFUSALS)[number]

/**
 * What a generation request can be refused with (a 400, all problems at once): what it names that
 * does not exist or does not fit, an upload not ready for it, a type this server cannot make. A
 * request that was right but could not be made is no refusal: its answer says why, as data.
 */
export const GENERATION_REFUSALS = [
  'template_unknown',
  'billboard_unknown',
  'event_unknown',
  'billboard_not_in_event',
  'template_not_offered',
  'template_size_mismatch',
  'upload_unknown',
  'upload_kind_mismatch',
  'upload_processing',
  'upload_failed',
  'upload_required',
  'upload_failed_unknown',
  'content_type_unavailable',
  'video_needs_async',
] as const satisfies readonly ProblemCode[]
export type GenerationRefusalCode = (typeof GENERATION_REFUSALS)[number]

const FILE_TYPES = ['image/png', 'image/jpeg', 'image/gif', 'video/mp4'] as const

export const content = {
  generators: endpoint({
    name: 'listGenerators',
    method: 'GET',
    path: '/content/generators',
    summary:
      'Design templates for the event types, the billboard size and the modes (spec §7 call 1)',
    query: GeneratorsQuerySchema,
    response: GeneratorsResponseSchema,
  }),
  upload: endpoint({
    name: 'uploadContent',
    method: 'POST',
    path: '/content/uploads',
    summary: `Upload a photo or video (multipart, field ${UPLOAD_FILE_FIELD}; optional field ${UPLOAD_TEMPLATE_FIELD}, before it)`,
    body: 'multipart',
    response: UploadSchema,
    status: 201,
    errors: [...UPLOAD_REFUSALS, 'upload_quota', 'content_jobs_busy', 'too_many_requests'],
  }),
  uploadStatus: endpoint({
    name: 'getUpload',
    method: 'GET',
    path: '/content/uploads/{id}',
    summary: 'An upload and its processing state',
    response: UploadSchema,
    errors: ['upload_not_found'],
  }),
  generate: endpoint({
    name: 'generateContent',
    method: 'POST',
    path: '/content/generate',
    summary: 'Render a template into billboard content (spec §7 call 2)',
    body: GenerateRequestSchema,
    response: GenerateResponseSchema,
    errors: [...GENERATION_REFUSALS, 'content_jobs_busy', 'upload_busy', 'too_many_requests'],
  }),
  daemonStatus: endpoint({
    name: 'getGenerationJob',
    method: 'GET',
    path: '/content/daemon/public/{publicToken}',
    summary: 'Status of an asynchronous generation (spec §7 call 3)',
    response: DaemonStatusSchema,
    errors: ['job_not_found'],
  }),
  daemonResult: endpoint({
    name: 'getGenerationResult',
    method: 'GET',
    path: '/content/daemon/result/{publicToken}',
    summary: 'The key of a finished asynchronous generation (spec §7 call 4)',
    response: DaemonResultSchema,
    errors: ['job_not_found', 'content_not_ready', 'content_failed'],
  }),
  file: endpoint({
    name: 'getContentFile',
    method: 'GET',
    path: '/content/files/{name}',
    summary:
      'A stored file (uploads and generated content), with single-range Range support (206, 416); HEAD too',
    headers: [{ name: 'Range', required: false, description: 'one bytes= range' }],
    file: FILE_TYPES,
    errors: ['file_not_found'],
    statuses: { 416: 'Range past the end' },
  }),
  preview: endpoint({
    name: 'getTemplatePreview',
    method: 'GET',
    path: '/content/previews/{file}',
    summary:
      "{templateId}.png: a picture of a template with sample texts and photo (previewImageUrl); {templateId}.mp4: a video template's example clip (examplePreviewVideoUrl); HEAD too",
    headers: [{ name: 'Range', required: false, description: 'one bytes= range (clips)' }],
    file: ['image/png', 'video/mp4'],
    errors: [
      'template_not_found',
      'template_no_example_clip',
      'template_render_failed',
      ['content_type_unavailable', 404],
    ],
  }),
  entries: endpoint({
    name: 'getContentEntries',
    method: 'GET',
    path: '/content/{opaqueKey}',
    summary: 'Entries of generated content (spec §7 call 5)',
    response: ContentEntriesSchema,
    errors: ['content_not_found'],
  }),
} as const
