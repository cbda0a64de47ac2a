import { ERROR_CODES } from '../../contract/error-codes.ts'
import { englishOf } from '../../contract/problems.ts'
import type { ContentType } from '../../domain/index.ts'
import type { GenerationError } from './generate.ts'
import type { UploadErrorCode } from './processors.ts'

// The content service's typed errors and their English texts. The texts are needed in two places:
// the routes answer them (routes.ts gives the status), and a background generation job keeps its
// failure as text for GET /content/daemon/public/{token} (service.ts).

export type ContentError =
  | GenerationError
  /** An upload refused while received or processed (processors.ts: UploadError). */
  | { code: UploadErrorCode; message: string }
  /** The client's share is used up for now (its jobs, its upload, its bytes this hour). */
  | { code: 'content_jobs_busy' | 'upload_busy' | 'upload_quota'; seconds: number }
  | { code: 'upload_not_found' }
  | { code: 'job_not_found' }
  /** The job failed; its reason, when it has one, is the shopper's. */
  | { code: 'content_failed'; reason: string | null }
  | { code: 'content_not_ready' }
  | { code: 'content_not_found' }
  | { code: 'file_not_found' }
  | { code: 'template_not_found' }
  | { code: 'template_no_example_clip' }
  | { code: 'template_render_failed' }

const typeName = (type: ContentType) => (type === 'video' ? 'Video' : 'Photo')

/** The text of a content error (a generation error names the request's field when it has one). */
export function contentMessage(error: ContentError): string {
  switch (error.code) {
    case 'invalid_input':
      return error.message
    case 'template_unknown':
      return `contentGenerationRequest.generatorId: unknown template "${error.generatorId}"`
    case 'billboard_unknown':
      return `contentGenerationRequest.deviceId: unknown billboard "${error.deviceId}"`
    case 'event_unknown':
      return `contentGenerationRequest.eventSlug: unknown event "${error.eventSlug}"`
    case 'billboard_not_in_event':
      return `The billboard "${error.deviceId}" is not part of the event "${error.eventSlug}".`
    case 'template_not_offered':
      return `The template "${error.templateId}" is not offered for the event "${error.eventSlug}".`
    case 'template_size_mismatch': {
      const { template, billboard } = error
      return `The template "${error.templateId}" is made for ${template.widthPx}x${template.heightPx} screens; this billboard shows ${billboard.widthPx}x${billboard.heightPx}.`
    }
    case 'upload_unknown':
      return `contentGenerationRequest.uploadId: unknown upload "${error.uploadId}"`
    case 'upload_kind_mismatch':
      return `This template needs a ${error.needed}, and the upload is a ${error.kind}.`
    case 'upload_processing':
      return `The ${error.kind} is still being processed: try again in a moment.`
    case 'upload_failed':
      return `The ${error.kind} could not be processed: ${error.reason ?? 'unknown error'}. Upload another.`
    case 'upload_required':
      return `This template needs a ${error.contentType}: upload one first.`
    case 'content_type_unavailable':
      return `${typeName(error.contentType)} templates are not available on this server.`
    case 'video_needs_async':
      return 'Video shouts are made in the background: send the request with async true.'
    case 'content_jobs_busy':
    case 'upload_busy':
    case 'upload_quota':
      return englishOf({ code: error.code, params: { seconds: error.seconds } })
    case 'upload_not_found':
      return 'Upload not found'
    case 'job_not_found':
      return 'Job not found'
    case 'content_failed':
      return error.reason ?? ERROR_CODES.content_failed
    case 'content_not_ready':
      return 'The content is not ready yet.'
    case 'content_not_found':
      return 'Content not found'
    case 'file_not_found':
      return 'File not found'
    case 'template_not_found':
      return 'Template not found'
    case 'template_no_example_clip':
      return 'This template has no example clip.'
    case 'template_render_failed':
      return 'This template cannot be rendered.'
    default:
      // UploadError: its message was written where the reason was found.
      return error.message
  }
}
