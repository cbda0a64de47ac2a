import type { Problem, ProblemCode } from '../../contract/problems.ts'

// The content service's errors: problems of the catalogue (src/contract/problems.ts gives each its
// status and English). A generation request that names something wrong (generate.ts), an upload
// refused (processors.ts UploadError), or a lookup that finds nothing (upload_not_found,
// job_not_found, content_not_ready, content_not_found, file_not_found, template_not_found,
// template_no_example_clip, template_render_failed); a job that failed answers its own problems.

export type ContentError<C extends ProblemCode = ProblemCode> = Problem<C>
