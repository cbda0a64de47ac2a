import type { ContentfulStatusCode } from 'hono/utils/http-status'
import type { Refusal } from '../platform/http/errors.ts'
import type { ContentError } from './errors.ts'

// The content service's errors as HTTP refusals, for the content routes and for any module that
// takes an upload through the content service (an advertiser's ad).

/** The content service's problems: each with the catalogue's status, unless the route fixes one. */
export function contentRefusal(
  errors: ContentError | readonly ContentError[],
  status?: ContentfulStatusCode,
): Refusal {
  const problems: readonly ContentError[] = Array.isArray(errors)
    ? errors
    : [errors as ContentError]
  return status ? { status, problems } : { problems }
}
