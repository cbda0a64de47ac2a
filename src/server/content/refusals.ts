import type { ContentfulStatusCode } from 'hono/utils/http-status'
import { problem, type Refusal } from '../platform/http/errors.ts'
import { type ContentError, contentMessage } from './errors.ts'

// The content service's errors as HTTP refusals: their statuses, for the content routes and for any
// module that takes an upload through the content service (an advertiser's ad).

const STATUS: Record<ContentError['code'], ContentfulStatusCode> = {
  // a generation request that names something wrong: the app can correct and resend
  invalid_input: 400,
  template_unknown: 400,
  billboard_unknown: 400,
  event_unknown: 400,
  billboard_not_in_event: 400,
  template_not_offered: 400,
  template_size_mismatch: 400,
  upload_unknown: 400,
  upload_kind_mismatch: 400,
  upload_processing: 400,
  upload_failed: 400,
  upload_required: 400,
  content_type_unavailable: 400,
  video_needs_async: 400,
  // uploads
  upload_not_multipart: 400,
  upload_malformed: 400,
  upload_no_file: 400,
  upload_empty: 400,
  upload_template_unknown: 400,
  upload_too_large: 413,
  image_too_large: 413,
  // a picture of a needle's shape: readable, but not one to show
  image_wrong_shape: 422,
  upload_wrong_type: 415,
  image_unreadable: 415,
  video_wrong_type: 415,
  upload_not_only_video: 415,
  upload_sound_only: 415,
  upload_unsupported: 415,
  video_unreadable: 422,
  // past VIDEO_LIMITS: a side, the frame rate or the pixels a second
  video_too_large: 413,
  // the shop's disk or quota is full: not the shopper's fault, try later
  storage_full: 507,
  // lookups
  upload_not_found: 404,
  job_not_found: 404,
  content_failed: 422,
  content_not_ready: 409,
  content_not_found: 404,
  file_not_found: 404,
  template_not_found: 404,
  template_no_example_clip: 404,
  template_render_failed: 422,
}

/** The refusal of one or more content errors: the first one's status. */
export function contentRefusal(
  errors: ContentError | readonly ContentError[],
  status?: ContentfulStatusCode,
): Refusal {
  const list: readonly ContentError[] = Array.isArray(errors) ? errors : [errors as ContentError]
  return {
    status: status ?? STATUS[(list[0] as ContentError).code],
    problems: list.map((e) => problem(e.code, contentMessage(e))),
  }
}
