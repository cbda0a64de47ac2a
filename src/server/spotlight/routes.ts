import * as v from 'valibot'
import { PromoCodeSchema, type SlotSearchResponse, spotlight } from '../../contract/index.ts'
import { allowedRequestOrigin } from '../platform/http/client.ts'
import { problem, type Refusal, refuse } from '../platform/http/errors.ts'
import { jsonAnswer } from '../platform/http/json.ts'
import type { ApiRouter } from '../platform/http/router.ts'
import type { ClientLimits } from '../platform/rate-limit.ts'
import { promoRefusal } from '../promo/refusals.ts'
import type { PromoService } from '../promo/service.ts'
import type { SpotlightError, SpotlightService } from './service.ts'

// api-v1 "Spotlight" over HTTP: events, billboards, slot search, QR codes, promo lookups.

export function spotlightRefusal(error: SpotlightError): Refusal {
  return {
    problems: [
      error.code === 'device_not_in_event'
        ? problem(error.code, { deviceId: error.deviceId, slug: error.slug })
        : problem(error.code),
    ],
  }
}

// The catalogue cache hands out the same event object until it reloads it: its JSON is kept with it.
const eventJsonCache = new WeakMap<object, string>()
function eventJson(event: object): string {
  let json = eventJsonCache.get(event)
  if (json === undefined) {
    json = JSON.stringify(event)
    eventJsonCache.set(event, json)
  }
  return json
}

// The open-slot list of a search, serialised, per sold-slot list and slot range. The sold-slot cache
// hands out the same array until a sale or a release changes it (then a new one): a WeakMap keyed by
// it drops stale answers by itself. Shoppers of one billboard ask the same range (it moves every
// slot width with the 5-hour cut-off), so most searches serialise nothing.
const RANGES_PER_LIST = 64
const openSlotsJsonCache = new WeakMap<readonly number[], Map<string, string>>()
function openSlotsJson(
  sold: readonly number[],
  range: { from: number; untilExclusive: number },
  compute: () => number[],
): string {
  let byRange = openSlotsJsonCache.get(sold)
  if (!byRange) {
    byRange = new Map()
    openSlotsJsonCache.set(sold, byRange)
  }
  const key = `${range.from}:${range.untilExclusive}`
  let json = byRange.get(key)
  if (json === undefined) {
    json = `[${compute().join(',')}]`
    if (byRange.size >= RANGES_PER_LIST) byRange.clear()
    byRange.set(key, json)
  }
  return json
}

// A code for PUBLIC_BASE_URL is the same for everyone: shared caches may keep it. A code made from
// the request's own host may differ by host: only the asker's browser keeps it.
const QR_HEADERS = { 'Cache-Control': 'public, max-age=3600' }
const QR_HEADERS_BY_HOST = { 'Cache-Control': 'private, max-age=3600', Vary: 'Host' }

export function spotlightRoutes(
  router: ApiRouter,
  deps: {
    spotlight: SpotlightService
    promo: PromoService
    limits: ClientLimits
    /** PUBLIC_BASE_URL: the only address QR codes open, when set. */
    publicBaseUrl: string | undefined
    /** Without it, the hosts a request may name (platform/http/client.ts: allowedHosts). */
    allowedHosts: ReadonlySet<string>
    trustProxy: number
  },
) {
  const { spotlight: service, promo } = deps

  router.handle(spotlight.event, async ({ params }) => {
    const event = await service.findEvent(params.slug)
    return event.ok ? event.value : refuse(spotlightRefusal(event.error))
  })

  router.handle(spotlight.liveEvents, async () => ({ events: await service.liveEvents() }))

  router.handle(spotlight.devices, async ({ params, query }) => {
    const page = await service.devicesPage(params.slug, query)
    return page.ok ? page.value : refuse(spotlightRefusal(page.error))
  })

  router.handle(spotlight.slotSearch, async ({ c, body }) => {
    const found = await service.searchSlots(body)
    if (!found.ok) return refuse(spotlightRefusal(found.error))
    const search = found.value
    const openSlots = search.closed
      ? '[]'
      : openSlotsJson(search.sold, search.range, search.openSlots)
    const rest = {
      ...search.availability,
      minPresaleSlotEpochMs: search.event.minPresaleSlotEpochMs,
      timeZoneId: search.device.timeZoneId,
      valueCentsPerSlot: search.event.valueCentsPerSlot,
    } satisfies Omit<SlotSearchResponse, 'openSlots' | 'event'>
    // The hottest answer of the shop: the event part is serialised once per catalogue read and the
    // slot list joined directly (the same JSON as c.json would write).
    const json = `{"openSlots":${openSlots},"event":${eventJson(search.event)},${JSON.stringify(rest).slice(1)}`
    return jsonAnswer(c, json)
  })

  // The code printed on each billboard, as a PNG and as an SVG.
  for (const [endpoint, format, type] of [
    [spotlight.qrPng, 'png', 'image/png'],
    [spotlight.qrSvg, 'svg', 'image/svg+xml; charset=utf-8'],
  ] as const) {
    router.handle(endpoint, async ({ c, params }) => {
      // Never the Host header's word alone; PUBLIC_BASE_URL, else a host configured.
      const origin =
        deps.publicBaseUrl ?? allowedRequestOrigin(c, deps.allowedHosts, deps.trustProxy)
      if (origin === null) {
        return refuse({ problems: [problem('host_not_allowed')] })
      }
      const code = await service.qrCode(params.slug, params.deviceId, format, origin)
      if (!code.ok) return refuse(spotlightRefusal(code.error))
      const headers = deps.publicBaseUrl ? QR_HEADERS : QR_HEADERS_BY_HOST
      return c.body(code.value, 200, { ...headers, 'Content-Type': type })
    })
  }

  // spec §5 promo lookup, rate limited per client address (code guessing), on the counter an
  // order naming a code shares.
  router.handle(
    spotlight.promo,
    async ({ params, query }) => {
      const code = v.safeParse(PromoCodeSchema, params.promoCode)
      if (!code.success) return refuse(promoRefusal({ code: 'promo_invalid' }))
      const checked = await promo.check(code.output, query.eventSlug, query.email ?? null)
      return checked.ok ? checked.value.promo : refuse(promoRefusal(checked.error))
    },
    deps.limits.promoChecks,
  )
}
