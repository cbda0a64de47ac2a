import type { MiddlewareHandler } from 'hono'
import * as v from 'valibot'
import { opsBillboards } from '../../contract/ops/billboards.ts'
import { MAX_CATALOGUE_BYTES, opsCatalogue } from '../../contract/ops/catalogue.ts'
import { opsDashboard } from '../../contract/ops/dashboard.ts'
import { ops } from '../../contract/ops/orders.ts'
import type { OpsGuard } from '../auth/guard.ts'
import { problem, type Refusal, refuse, withProblemFields } from '../platform/http/errors.ts'
import { readJson } from '../platform/http/json.ts'
import type { ApiRouter } from '../platform/http/router.ts'
import { err, mapErr, mapOk, ok } from '../platform/result.ts'
import type { OpsError, OpsService } from './service.ts'

// api-v1 "Operations" over HTTP: the review queue, orders, approve, cancel, the audit log, the
// billboards and a billboard's day, player links, the catalogue upload and the dashboard. Each is
// registered through the operators' guard (auth/guard.ts: Origin on state changes, session, the
// endpoint's `access` role) before anything is read; the status and the text of each of the
// service's errors are here.

const GuidSchema = v.pipe(v.string(), v.uuid())

/** The answer to a console error: its own code, typed by the errors it may be. */
export const opsRefusal = <E extends OpsError>(error: E) => refusalOf(error) as Refusal<E['code']>

function refusalOf(error: OpsError): Refusal {
  switch (error.code) {
    case 'order_not_found':
    case 'not_under_review':
    case 'not_cancellable':
    case 'reviewers_refuse_only':
    case 'device_not_found':
    case 'event_not_found':
    case 'catalogue_not_json':
    case 'catalogue_not_previewed':
      // A service's error is a problem of the catalogue: its status and text are there.
      return { problems: [error] }
    case 'catalogue_invalid':
      // each problem of the file, its English as the preview listed it
      return { problems: error.problems.map((p) => problem('catalogue_invalid', { problem: p })) }
  }
}

/** The catalogue file travels as JSON text: a larger body than the 64 KB of other JSON calls. */
const catalogueBody: MiddlewareHandler = async (c, next) => {
  // read once with the larger limit; the router's own read takes the parsed body from here
  await readJson(c, MAX_CATALOGUE_BYTES + 64 * 1024)
  await next()
}

/** A guid from the path; anything else names no order. */
const guidOf = (raw: string): string =>
  v.is(GuidSchema, raw) ? raw : refuse(opsRefusal({ code: 'order_not_found' }))

export function opsRoutes(router: ApiRouter, guard: OpsGuard, service: OpsService) {
  // ---------- orders and the audit log ----------

  guard.handle(router, ops.review, async () =>
    ok({
      orders: (await service.reviewQueue()).map(withProblemFields),
    }),
  )

  guard.handle(router, ops.orders, async ({ query }) =>
    ok({
      orders: (await service.find(query.query, query.day, query.before)).map(withProblemFields),
    }),
  )

  guard.handle(router, ops.order, async ({ params }) => {
    const found = await service.order(guidOf(params.guid))
    return mapErr(mapOk(found, withProblemFields), opsRefusal)
  })

  guard.handle(router, ops.approve, async ({ params, operator }) => {
    const approved = await service.approve(guidOf(params.guid), operator)
    return mapErr(mapOk(approved, withProblemFields), opsRefusal)
  })

  guard.handle(router, ops.cancel, async ({ params, body, operator }) => {
    // the operator's own words, given to the shopper as they were typed
    const reason = { code: 'order_cancelled', params: { reason: body.reason } }
    const cancelled = await service.cancel(guidOf(params.guid), reason, { operator })
    return mapErr(mapOk(cancelled, withProblemFields), opsRefusal)
  })

  guard.handle(router, ops.audit, async ({ query }) =>
    ok({
      entries: await service.audit({
        limit: query.limit,
        before: query.before,
        orderGuid: query.orderGuid,
        operator: query.operator,
        action: query.action,
      }),
    }),
  )

  // ---------- billboards, the catalogue upload, the dashboard ----------

  guard.handle(router, opsBillboards.billboards, async () =>
    ok({
      billboards: await service.listBillboards(),
    }),
  )

  guard.handle(router, opsBillboards.scheduleDay, async ({ params, query }) => {
    const day = await service.scheduleDay(params.deviceId, query.day)
    return mapErr(day, opsRefusal)
  })

  guard.handle(router, opsBillboards.playerLink, async ({ params, operator }) => {
    const link = await service.makePlayerLink(params.deviceId, operator)
    return mapErr(link, opsRefusal)
  })

  guard.handle(
    router,
    opsCatalogue.cataloguePreview,
    async ({ body }) => ok(await service.previewCatalogue(body.text)),
    catalogueBody,
  )

  guard.handle(
    router,
    opsCatalogue.catalogueApply,
    async ({ body, operator }) => {
      const applied = await service.applyCatalogue(body.text, body.sha256, operator)
      return mapErr(applied, opsRefusal)
    },
    catalogueBody,
  )

  guard.handle(router, opsDashboard.dashboard, async () => ok(await service.dashboard()))

  // streamed as it is read (proof-export.ts): never the whole file in memory
  guard.handle(router, opsBillboards.proofExport, async ({ query }) => {
    const found = await service.proofExport(query)
    if (!found.ok) return err(opsRefusal(found.error))
    const chunks = found.value.chunks()
    const encoder = new TextEncoder()
    const body = new ReadableStream<Uint8Array>({
      async pull(controller) {
        const next = await chunks.next()
        if (next.done) controller.close()
        else controller.enqueue(encoder.encode(next.value))
      },
      async cancel() {
        await chunks.return(undefined)
      },
    })
    return ok(
      new Response(body, {
        status: 200,
        headers: {
          'Content-Type': 'text/csv; charset=utf-8',
          'Content-Disposition': `attachment; filename="${found.value.filename}"`,
          'Cache-Control': 'no-store',
        },
      }),
    )
  })
}
