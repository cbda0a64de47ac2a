import type { UploadRefusalCode } from '../../contract/index.ts'
import type { Problem, ProblemCode } from '../../contract/problems.ts'

// The content service's errors: problems of the catalogue (src/contract/problems.ts gives each its
// status and English). A generation request that names something wrong (generate.ts), an upload
// refused (processors.ts UploadError), or a lookup that finds nothing (upload_not_found,
// job_not_found, content_not_ready, content_not_found, file_not_found, template_not_found,
// template_no_example_clip, template_render_failed). Each call names the codes it refuses with; what
// a background job finds (a failed upload's or generation's reasons) is data of any code, answered
// inside the upload or the job, never as a refusal.

export type ContentError<C extends ProblemCode = ProblemCode> = Problem<C>

/**
 * What an upload's request is refused with: a refusal of the upload itself (UPLOAD_REFUSALS, what
 * the upload endpoints declare), or its client told to wait.
 */
export type UploadRefusal = ContentError<UploadRefusalCode | 'upload_quota' | 'content_jobs_busy'>
