import {
  type ContentGenerationRequest,
  content,
  UPLOAD_FILE_FIELD,
  UPLOAD_TEMPLATE_FIELD,
  type Upload,
} from '../../../contract/content'
import type { ProblemData } from '../../../domain/problems'
import { ASYNC_POLL_MS, VIDEO_PROCESSING_MAX_MS } from '../../../domain/storage'
import { ApiError, apiRequest, callApi } from '../../lib/api'
import { eventStore } from '../../stores/event'
import { orderStore } from '../../stores/order'
import { setStatus } from '../../stores/request-status'
import { templatesStore } from '../../stores/templates'
import { toggleModal, uiStore } from '../../stores/ui'

const wait = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms))

/** Uploads the shopper's photo or video; a video is processed by the server (up to 30 s). */
export async function uploadPersonalContent(file: File): Promise<Upload> {
  const form = new FormData()
  // api-v1 Content: the template field must come BEFORE the file (the server streams the parts and
  // trims the clip to that template's videoMaxLengthSeconds while reading)
  const generatorId = templatesStore.selectedTemplate?.id
  if (generatorId) form.append(UPLOAD_TEMPLATE_FIELD, generatorId)
  form.append(UPLOAD_FILE_FIELD, file)
  let upload = await callApi(content.upload, { formData: form })
  if (upload.status === 'processing') {
    // spec §4: upload ids are kept (4 min) until processing is seen; polling stops when none is left
    templatesStore.newContentUploadIds = [...templatesStore.newContentUploadIds, upload.id]
    const deadline = Date.now() + VIDEO_PROCESSING_MAX_MS
    try {
      while (upload.status === 'processing' && Date.now() < deadline) {
        await wait(1000)
        upload = await callApi(content.uploadStatus, { params: { id: upload.id } })
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
    const answer = await callApi(content.generate, {
      body: { contentGenerationRequest: request, async: isVideo },
    })
    if (!isVideo || !answer.asyncPublicToken) {
      if (answer.success && answer.generatedContent) {
        templatesStore.generatedContent = answer.generatedContent
        orderStore.contentGenReq = request
        setStatus(templatesStore, 'processContentGeneratorStatus', 'Success')
        if (answer.generatedContent.flagged) openFlagged()
      } else {
        fail(failureProblems(answer))
      }
      return
    }
    await wait(ASYNC_POLL_MS)
    for (;;) {
      const job = await callApi(content.daemonStatus, {
        params: { publicToken: answer.asyncPublicToken },
      })
      if (job.error) {
        fail(failureProblems(job))
        return
      }
      if (job.completedEpochMS !== null && job.link) {
        // the job's own link to its result (api-v1), read with that endpoint's schema
        const result = await apiRequest(job.link, content.daemonResult.response)
        const entries = await callApi(content.entries, { params: { opaqueKey: result.newKey } })
        const first = entries.entries[0]
        if (!first) {
          fail([])
          return
        }
        templatesStore.videoCompositeContent = first
        templatesStore.generatedContent = {
          key: result.newKey,
          url: first.url,
          type: first.type,
          widthPx: first.widthPx,
          heightPx: first.heightPx,
          flagged: entries.entries.some((entry) => entry.flagged),
        }
        orderStore.contentGenReq = request
        setStatus(templatesStore, 'processContentGeneratorStatus', 'Success')
        if (templatesStore.generatedContent.flagged) openFlagged()
        return
      }
      await wait(ASYNC_POLL_MS)
    }
  } catch (error) {
    fail(error instanceof ApiError ? error.problems : [])
  }
}

/**
 * spec §5: flagged content is not refused — the order is placed UnderReview — but the shopper is told
 * now, with the link to support, that it will be reviewed before it plays.
 */
function openFlagged(): void {
  if (uiStore.modal?.name !== 'ProhibitedContent') toggleModal('ProhibitedContent')
}

/** The problems of a failed generation: as sent, else its English as plain text. */
const failureProblems = (answer: {
  error: string | null
  problems?: ProblemData[] | undefined
}): ProblemData[] =>
  answer.problems ?? (answer.error ? [{ code: 'plain_text', params: { text: answer.error } }] : [])

/** A failed generation: its problems (none known: the design could not be made). */
function fail(problems: ProblemData[]): void {
  templatesStore.generatedContentError = problems
  // spec §8: a failure sets Failure (reset after 3 s); the error stays beside the design until the
  // next attempt. Moderation never refuses (it flags, see openFlagged), so this is not ProhibitedContent.
  setStatus(templatesStore, 'processContentGeneratorStatus', 'Failure')
}
