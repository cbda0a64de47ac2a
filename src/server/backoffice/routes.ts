import type { MiddlewareHandler } from 'hono'
import { MAX_CATALOGUE_BYTES, opsConsole } from '../../contract/ops-console.ts'
import type { OpsGuard } from '../auth/guard.ts'
import { problem, type Refusal, refuse } from '../platform/http/errors.ts'
import { readJson } from '../platform/http/json.ts'
import type { ApiRouter } from '../platform/http/router.ts'
import type { BackofficeError, BackofficeService } from './service.ts'

// The console's second part over HTTP. Each endpoint is registered through the operators'
// guard (auth/guard.ts: Origin on state changes, session, the endpoint's `access` role) before
// anything is read; the status and the text of each of the service's errors are here.

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
  guard.handle(router, opsConsole.billboards, async () => ({
    billboards: await service.listBillboards(),
  }))

  guard.handle(router, opsConsole.scheduleDay, async ({ params, query }) => {
    const day = await service.scheduleDay(params.deviceId, query.day)
    return day.ok ? day.value : refuse(backofficeRefusal(day.error))
  })

  guard.handle(router, opsConsole.playerLink, async ({ params, operator }) => {
    const link = await service.makePlayerLink(params.deviceId, operator)
    return link.ok ? link.value : refuse(backofficeRefusal(link.error))
  })

  guard.handle(
    router,
    opsConsole.cataloguePreview,
    async ({ body }) => service.previewCatalogue(body.text),
    catalogueBody,
  )

  guard.handle(
    router,
    opsConsole.catalogueApply,
    async ({ body, operator }) => {
      const applied = await service.applyCatalogue(body.text, body.sha256, operator)
      return applied.ok ? applied.value : refuse(backofficeRefusal(applied.error))
    },
    catalogueBody,
  )

  guard.handle(router, opsConsole.dashboard, async () => service.dashboard())
}
