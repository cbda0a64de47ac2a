import type { MiddlewareHandler } from 'hono'
import { MAX_CATALOGUE_BYTES, opsConsole } from '../../contract/ops-console.ts'
import { problem, type Refusal, refuse } from '../platform/http/errors.ts'
import { readJson } from '../platform/http/json.ts'
import type { ApiRouter } from '../platform/http/router.ts'
import type { BackofficeError, BackofficeService } from './service.ts'

// Issue 10, the console's second part over HTTP. Each endpoint runs behind the operators' guard
// (session, role, Origin on state changes) before anything is read; the status and the text of each
// of the service's errors are here.

/** The guard for an endpoint's least role (the ops module's). */
export type OpsGuard = (access: 'reviewer' | 'admin') => MiddlewareHandler

export function backofficeRefusal(error: BackofficeError): Refusal {
  switch (error.code) {
    case 'device_not_found':
      return { status: 404, problems: [problem(error.code, 'Unknown billboard')] }
    case 'catalogue_not_json':
      return { status: 400, problems: [problem(error.code, error.message)] }
    case 'catalogue_invalid':
      return {
        status: 400,
        problems: error.problems.map((message) => problem(error.code, message)),
      }
    case 'catalogue_not_previewed':
      return {
        status: 409,
        problems: [
          problem(error.code, 'This is not the file that was previewed: preview it again first'),
        ],
      }
  }
}

/** The catalogue file travels as JSON text: a larger body than the 64 KB of other JSON calls. */
const catalogueBody: MiddlewareHandler = async (c, next) => {
  // read once with the larger limit; the router's own read takes the parsed body from here
  await readJson(c, MAX_CATALOGUE_BYTES + 64 * 1024)
  await next()
}

export function backofficeRoutes(router: ApiRouter, service: BackofficeService, guard: OpsGuard) {
  router.handle(
    opsConsole.billboards,
    async () => ({ billboards: await service.listBillboards() }),
    guard('reviewer'),
  )

  router.handle(
    opsConsole.scheduleDay,
    async ({ params, query }) => {
      const day = await service.scheduleDay(params.deviceId, query.day)
      return day.ok ? day.value : refuse(backofficeRefusal(day.error))
    },
    guard('reviewer'),
  )

  router.handle(
    opsConsole.playerLink,
    async ({ c, params }) => {
      const link = await service.makePlayerLink(params.deviceId)
      // the token is in this answer only: no cache may keep it
      c.header('Cache-Control', 'no-store')
      return link.ok ? link.value : refuse(backofficeRefusal(link.error))
    },
    guard('admin'),
  )

  router.handle(
    opsConsole.cataloguePreview,
    async ({ body }) => service.previewCatalogue(body.text),
    guard('admin'),
    catalogueBody,
  )

  router.handle(
    opsConsole.catalogueApply,
    async ({ body }) => {
      const applied = await service.applyCatalogue(body.text, body.sha256)
      return applied.ok ? applied.value : refuse(backofficeRefusal(applied.error))
    },
    guard('admin'),
    catalogueBody,
  )

  router.handle(opsConsole.dashboard, async () => service.dashboard(), guard('admin'))
}
