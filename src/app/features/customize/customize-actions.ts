import {
  ContentEntriesSchema,
  type ContentGenerationRequest,
  DaemonResultSchema,
  DaemonStatusSchema,
  GenerateResponseSchema,
  type Upload,
  UploadSchema,
} from '../../../contract/content'
import { ASYNC_POLL_MS, VIDEO_PROCESSING_MAX_MS } from '../../../domain/storage'
import { ApiError, apiGet, apiPost, apiRequest } from '../../lib/api'
import { eventStore } from '../../stores/event'
import { orderStore } from '../../stores/order'
import { setStatus } from '../../stores/request-status'
import { templatesStore } from '../../stores/templates'
import { toggleModal, uiStore } from '../../stores/ui'

const wait = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms))

/** Uploads the shopper's photo or video; a video is processed by the server (up to 30 s). */
export async function uploadPersonalContent(file: File): Promise<Upload> {
  const form = new FormData()
  // api-v1 Content: `generatorId` must come BEFORE `file` (the server streams the parts and trims the
  // clip to that template's videoMaxLengthSeconds while reading)
  const generatorId = templatesStore.selectedTemplate?.id
  if (generatorId) form.append('generatorId', generatorId)
  form.append('file', file)
  let upload = await apiRequest('/content/uploads', UploadSchema, {
    method: 'POST',
    formData: form,
  })
  if (upload.status === 'processing') {
    // spec §4: upload ids are kept (4 min) until processing is seen; polling stops when none is left
    templatesStore.newContentUploadIds = [...templatesStore.newContentUploadIds, upload.id]
    const deadline = Date.now() + VIDEO_PROCESSING_MAX_MS
    try {
      while (upload.status === 'processing' && Date.now() < deadline) {
        await wait(1000)
        upload = await apiGet(`/content/uploads/${encodeURIComponent(upload.id)}`, UploadSchema)
      }
    } finally {
      templatesStore.newContentUploadIds = templatesStore.newContentUploadIds.filter(
        (id) => id !== upload.id,
      )
    }
  }
  if (upload.status === 'ready') {
    orderStore.personalImage = { uploadId: upload.id, url: upload.url, kind: upload.kind }
    invalidateContent()
  }
  return upload
}

/** The design changed: content made from the old one must be made again. */
export function invalidateContent(): void {
  templatesStore.generatedContent = null
  templatesStore.videoCompositeContent = null
  orderStore.contentGenReq = null
}

export function contentRequest(): ContentGenerationRequest | null {
  const template = templatesStore.selectedTemplate
  const device = orderStore.activeDevice
  const event = eventStore.event
  if (!template || !device || !event) return null
  return {
    generatorId: template.id,
    deviceId: device.deviceId,
    eventSlug: event.slug,
    uploadId: orderStore.personalImage?.uploadId ?? null,
    buyerName: orderStore.buyerName.trim(),
    recipientName: orderStore.recipientName.trim(),
    multilineMessage: orderStore.multilineMessage,
  }
}

/**
 * spec §4 content generation: clear the previous error and content, then Running. Synchronous for
 * a photo; asynchronous for a video (wait 3 s, then poll the job every 3 s until an error or a
 * completion time, fetch the result link, then the content entries by the key).
 */
export async function generateContent(): Promise<void> {
  const request = contentRequest()
  if (!request) return
  const isVideo = Boolean(templatesStore.selectedTemplate?.examplePreviewVideoUrl)
  templatesStore.generatedContentError = null
  templatesStore.generatedContent = null
  templatesStore.videoCompositeContent = null
  setStatus(templatesStore, 'processContentGeneratorStatus', 'Running')
  try {
    const answer = await apiPost(
      '/content/generate',
      { contentGenerationRequest: request, async: isVideo },
      GenerateResponseSchema,
    )
    if (!isVideo || !answer.asyncPublicToken) {
      if (answer.success && answer.generatedContent) {
        templatesStore.generatedContent = answer.generatedContent
        orderStore.contentGenReq = request
        setStatus(templatesStore, 'processContentGeneratorStatus', 'Success')
        if (answer.generatedContent.flagged) openFlagged()
      } else {
        fail(answer.error)
      }
      return
    }
    await wait(ASYNC_POLL_MS)
    for (;;) {
      const job = await apiGet(
        `/content/daemon/public/${encodeURIComponent(answer.asyncPublicToken)}`,
        DaemonStatusSchema,
      )
      if (job.error) {
        fail(job.error)
        return
      }
      if (job.completedEpochMS !== null && job.link) {
        const result = await apiGet(job.link, DaemonResultSchema)
        const content = await apiGet(
          `/content/${encodeURIComponent(result.newKey)}`,
          ContentEntriesSchema,
        )
        const first = content.entries[0]
        if (!first) {
          fail(null)
          return
        }
        templatesStore.videoCompositeContent = first
        templatesStore.generatedContent = {
          key: result.newKey,
          url: first.url,
          type: first.type,
          widthPx: first.widthPx,
          heightPx: first.heightPx,
          flagged: content.entries.some((entry) => entry.flagged),
        }
        orderStore.contentGenReq = request
        setStatus(templatesStore, 'processContentGeneratorStatus', 'Success')
        if (templatesStore.generatedContent.flagged) openFlagged()
        return
      }
      await wait(ASYNC_POLL_MS)
    }
  } catch (error) {
    fail(error instanceof ApiError ? (error.errors[0] ?? null) : null)
  }
}

/**
 * spec §5: flagged content is not refused — the order is placed UnderReview — but the shopper is told
 * now, with the link to support, that it will be reviewed before it plays.
 */
function openFlagged(): void {
  if (uiStore.modal?.name !== 'ProhibitedContent') toggleModal('ProhibitedContent')
}

function fail(error: string | null): void {
  templatesStore.generatedContentError = error ?? ''
  // spec §8: a failure sets Failure (reset after 3 s); the error stays beside the design until the
  // next attempt. Moderation never refuses (it flags, see openFlagged), so this is not ProhibitedContent.
  setStatus(templatesStore, 'processContentGeneratorStatus', 'Failure')
}
