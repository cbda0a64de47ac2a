import type { ContentfulStatusCode } from 'hono/utils/http-status'
import type { Problem, ProblemCode } from '../../contract/problems.ts'
import type { Refusal } from '../platform/http/errors.ts'

// The content service's errors as HTTP refusals, for the content routes and for any module that
// takes an upload through the content service (an advertiser's ad).

/** The content service's problems: each with the catalogue's status, unless the route fixes one. */
export function contentRefusal<C extends ProblemCode>(
  errors: Problem<C> | readonly Problem<C>[],
  status?: ContentfulStatusCode,
): Refusal<C> {
  const problems: readonly Problem<C>[] = Array.isArray(errors) ? errors : [errors as Problem<C>]
  return status ? { status, problems } : { problems }
}
