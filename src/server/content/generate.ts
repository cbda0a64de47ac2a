// POST /content/generate: turning a shopper's request (template, billboard, event, photo, texts) into
// stored billboard content with a key an order can name (api-v1 Content; spec §4 content generation).
//
// Outcomes, by who can fix them:
// - `invalid` (answered 400 {errors}): the request names something that does not exist or does not fit
//   (unknown template, billboard or event; a template the event does not offer or made for another
//   screen size; a photo template without a ready photo). The shopper's app can correct and resend.
// - `failed` (answered 200 {success: false, error}): the request was right but making the content failed
//   (a template the server cannot render, a stored photo that cannot be read). spec §4: the app stores
//   the error and shows Failure.
// - `done` (200 {success: true, generatedContent}).
import type {
  ContentGenerationRequest,
  GeneratedContent,
  GenerationRefusalCode,
} from '../../contract/index.ts'
import { type Problem, problem } from '../../contract/problems.ts'
import type { ContentType } from '../../domain/index.ts'
import {
  generationSubjects,
  type PlanDevice,
  type PlanEvent,
  type TemplateRow,
} from '../catalogue/reads.ts'
import type { ParsedTemplate } from '../catalogue/template-html.ts'
import type { Queryable } from '../platform/db/client.ts'
import type { Logger } from '../platform/log.ts'
import { type PngRenderer, parseOrThrow, renderFailure } from './render.ts'
import { type GenerationTexts, insertGeneratedContent, type UploadRow, uploadById } from './repo.ts'
import { type ContentStorage, newId, StorageUnavailable } from './storage.ts'

/** Everything a generation needs, looked up and checked. */
export type GenerationPlan = {
  request: ContentGenerationRequest
  template: TemplateRow
  device: PlanDevice
  event: PlanEvent
  contentType: ContentType
  upload: UploadRow | null
}

export type GenerationContext = {
  db: Queryable
  storage: ContentStorage
  log: Logger
  /** Builds the public URL of a stored file. */
  fileUrl: (fileName: string) => string
  /** spec §5 moderation; without it nothing is flagged. */
  moderate?: ContentModerator
  /** Draws a template (render.ts): in the content worker, or in this process. */
  render: PngRenderer
  /** Aborted when the server stops (a job is then run again at the next start). */
  signal?: AbortSignal
}

export type ModerationVerdict = { flagged: boolean; reasons: string[] }

/**
 * Checks what a shopper put on a billboard. A flag refuses nothing (spec §5: "detected automatically and
 * flagged"): the content is stored flagged and an order naming it is placed UnderReview.
 */
export type ContentModerator = (input: {
  texts: GenerationTexts
  /** The processed upload (photo) when the content shows one. */
  photo: Buffer | null
  /** Frames sampled from a video's finished clip (PNG). */
  frames?: Buffer[]
  contentType: ContentType
}) => Promise<ModerationVerdict>

/**
 * Why a request cannot be made into content: problems of the catalogue, each with its values (an
 * unknown template, an upload of the wrong kind…; the routes answer 400), the codes the generate
 * endpoint declares (GENERATION_REFUSALS). A job that checks its request again keeps them as data.
 * content_type_unavailable: this server cannot make the type (no ffmpeg: no video);
 * video_needs_async (spec §4): a clip takes seconds of ffmpeg, so it is made as a job only.
 */
export type GenerationError = Problem<GenerationRefusalCode>

export type GenerateOutcome =
  | { kind: 'invalid'; errors: GenerationError[] }
  /** spec §4: a request that was right but could not be made: why */
  | { kind: 'failed'; problem: Problem }
  | { kind: 'done'; content: GeneratedContent }

/**
 * Makes the content of one type from a checked plan. The photo generator is below; the video module adds the
 * video generator (a rendered overlay composited on the trimmed clip) by registering it for 'video'.
 */
export type ContentGenerator = (
  plan: GenerationPlan,
  context: GenerationContext,
) => Promise<GenerateOutcome>

/** spec §3: the presence of examplePreviewVideoUrl marks a video template. */
export function templateContentType(
  template: Pick<TemplateRow, 'types' | 'examplePreviewVideoUrl'>,
): ContentType {
  return template.examplePreviewVideoUrl !== null || !template.types.includes('photo')
    ? 'video'
    : 'photo'
}

const parsedTemplates = new Map<string, { html: string; parsed: ParsedTemplate }>()

/** Parses a template's html once per version of it (templates are data that an import may change). */
export function parsedTemplate(template: Pick<TemplateRow, 'id' | 'html'>): ParsedTemplate {
  const cached = parsedTemplates.get(template.id)
  if (cached?.html === template.html) return cached.parsed
  const parsed = parseOrThrow(template.html)
  parsedTemplates.set(template.id, { html: template.html, parsed })
  return parsed
}

/** Looks up and checks everything the request names; every problem is reported. */
export async function planGeneration(
  db: Queryable,
  request: ContentGenerationRequest,
): Promise<{ ok: true; plan: GenerationPlan } | { ok: false; errors: GenerationError[] }> {
  const { template, device, event, onEvent, offered } = await generationSubjects(db, request)
  const errors: GenerationError[] = []
  if (!template) errors.push(problem('template_unknown', { generatorId: request.generatorId }))
  if (!device) errors.push(problem('billboard_unknown', { deviceId: request.deviceId }))
  if (!event) errors.push(problem('event_unknown', { eventSlug: request.eventSlug }))
  if (!template || !device || !event) return { ok: false, errors }

  if (!onEvent) {
    errors.push(
      problem('billboard_not_in_event', { deviceId: device.deviceId, eventSlug: event.slug }),
    )
  }
  const contentType = templateContentType(template)
  // The event's allowed types filter the template list the shopper sees (spec §7 call 1).
  if (!offered || !event.allowedContentGeneratorTypes.includes(contentType)) {
    errors.push(problem('template_not_offered', { templateId: template.id, eventSlug: event.slug }))
  }
  // spec §7 call 1: templates are listed by the active device's size; each is designed for one size.
  if (template.widthPx !== device.contentWidth || template.heightPx !== device.contentHeight) {
    errors.push(
      problem('template_size_mismatch', {
        templateId: template.id,
        templateWidthPx: template.widthPx,
        templateHeightPx: template.heightPx,
        billboardWidthPx: device.contentWidth,
        billboardHeightPx: device.contentHeight,
      }),
    )
  }

  let upload: UploadRow | null = null
  let needsUpload = contentType === 'video'
  try {
    needsUpload ||= parsedTemplate(template).usesPhoto
  } catch {
    // A template that does not parse fails at generation time (a catalogue problem, not the shopper's).
  }
  if (request.uploadId !== null) {
    upload = await uploadById(db, request.uploadId)
    if (!upload) errors.push(problem('upload_unknown', { uploadId: request.uploadId }))
    else if (upload.kind !== contentType && needsUpload) {
      errors.push(problem('upload_kind_mismatch', { needed: contentType, kind: upload.kind }))
    } else if (upload.status === 'processing') {
      errors.push(problem('upload_processing', { kind: upload.kind }))
    } else if (upload.status === 'failed') {
      errors.push(
        upload.error
          ? problem('upload_failed', { kind: upload.kind, reason: upload.error })
          : problem('upload_failed_unknown', { kind: upload.kind }),
      )
    }
  } else if (needsUpload) {
    errors.push(problem('upload_required', { contentType }))
  }
  if (errors.length > 0) return { ok: false, errors }
  return { ok: true, plan: { request, template, device, event, contentType, upload } }
}

/** The shopper's texts of a request: what the template shows and what moderation reads. */
export function textsOf(plan: GenerationPlan): GenerationTexts {
  return {
    buyerName: plan.request.buyerName,
    recipientName: plan.request.recipientName,
    multilineMessage: plan.request.multilineMessage,
  }
}

/**
 * Runs `save` (moderation and the database row) for files just written to storage, and removes them
 * when it fails: a stored file never outlives the row that names it.
 */
export async function keepWithRow<T>(
  storage: ContentStorage,
  names: readonly string[],
  save: () => Promise<T>,
): Promise<T> {
  try {
    return await save()
  } catch (error) {
    await Promise.all(names.map((name) => storage.remove(name).catch(() => undefined)))
    throw error
  }
}

/** Stores a rendered or composited file's record and answers it in the api-v1 shape. */
export async function saveGeneratedContent(
  context: GenerationContext,
  plan: GenerationPlan,
  file: { fileName: string; widthPx: number; heightPx: number; durationSeconds: number | null },
  verdict: ModerationVerdict = { flagged: false, reasons: [] },
): Promise<GeneratedContent> {
  const row = {
    key: newId(),
    url: context.fileUrl(file.fileName),
    type: plan.contentType,
    widthPx: file.widthPx,
    heightPx: file.heightPx,
    generatorId: plan.template.id,
    deviceId: plan.device.deviceId,
    eventSlug: plan.event.slug,
    uploadId: plan.upload?.id ?? null,
    fileName: file.fileName,
    durationSeconds: file.durationSeconds,
    request: textsOf(plan),
    flagged: verdict.flagged,
    flagReasons: verdict.reasons,
  }
  await insertGeneratedContent(context.db, row)
  if (verdict.flagged) {
    context.log.info('generated content flagged', { key: row.key, reasons: verdict.reasons })
  }
  return {
    key: row.key,
    url: row.url,
    type: row.type,
    widthPx: row.widthPx,
    heightPx: row.heightPx,
    // spec §5: the app opens the ProhibitedContent modal.
    flagged: row.flagged,
  }
}

/** Photo shouts: the template rendered with the shopper's photo and texts at the billboard's size. */
export const generatePhoto: ContentGenerator = async (plan, context) => {
  const width = plan.device.contentWidth
  const height = plan.device.contentHeight
  let png: Buffer
  let photo: Buffer | null = null
  try {
    const template = parsedTemplate(plan.template)
    photo =
      template.usesPhoto && plan.upload?.fileName
        ? await context.storage.read(plan.upload.fileName)
        : null
    png = await context.render({
      template,
      values: textsOf(plan),
      width,
      height,
      photo,
      ...(plan.upload?.fileName ? { photoCacheKey: plan.upload.fileName } : {}),
    })
  } catch (error) {
    // Storage that does not answer is an outage to try again (503, a job retried later), not a
    // render that failed for good; a stored photo that cannot be read is a failure.
    if (error instanceof StorageUnavailable) throw error
    context.log.error('content generation failed', { templateId: plan.template.id, error })
    return { kind: 'failed', problem: renderFailure(error) }
  }
  const fileName = context.storage.newName('png')
  await context.storage.write(fileName, png)
  const content = await keepWithRow(context.storage, [fileName], async () => {
    const verdict = context.moderate
      ? await context.moderate({ texts: textsOf(plan), photo, contentType: 'photo' })
      : undefined
    return saveGeneratedContent(
      context,
      plan,
      { fileName, widthPx: width, heightPx: height, durationSeconds: null },
      verdict,
    )
  })
  return { kind: 'done', content }
}
