import * as v from 'valibot'
import { PromoCodeSchema, type SlotSearchResponse, spotlight } from '../../contract/index.ts'
import { allowedRequestOrigin } from '../platform/http/client.ts'
import { problem } from '../platform/http/errors.ts'
import { jsonAnswer, type KeptJson, keptJson, keptJsonAnswer } from '../platform/http/json.ts'
import type { ApiRouter } from '../platform/http/router.ts'
import type { ClientLimits } from '../platform/rate-limit.ts'
import { err, mapErr, mapOk, ok } from '../platform/result.ts'
import { catalogueRefusal, promoRefusal } from './refusals.ts'
import type { CatalogueService, SlotSearch } from './service.ts'

// api-v1 "Spotlight" over HTTP: events, billboards, slot search, QR codes, promo lookups.

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

/** A search's answer: the open slots as text, the event, and the rest of the fields as JSON text. */
const searchJson = (openSlots: string, event: object, rest: string) =>
  `{"openSlots":${openSlots},"event":${eventJson(event)},${rest.slice(1)}`

/** A search's fields besides the open slots and the event, as JSON text. */
const restOf = (search: SlotSearch) =>
  JSON.stringify({
    ...search.availability,
    minPresaleSlotEpochMs: search.event.minPresaleSlotEpochMs,
    timeZoneId: search.device.timeZoneId,
    valueCentsPerSlot: search.event.valueCentsPerSlot,
  } satisfies Omit<SlotSearchResponse, 'openSlots' | 'event'>)

// A search's answer, per sold-slot list and slot range. The sold-slot cache hands out the same array
// until a sale or a release changes it (then a new one): a WeakMap keyed by it drops stale answers by
// itself. Shoppers of one billboard ask the same range (it moves every slot width with the 5-hour
// cut-off), so most searches serialise nothing: the open-slot list is kept as text, and the whole
// answer as bytes (gzipped once for phones) while the event read, the billboard's zone and the
// availability window (which moves with the cut-off) stay the same.
const RANGES_PER_LIST = 64
type RangeAnswer = {
  openSlots: string
  event: object | null
  timeZoneId: string
  minAvailable: number | null
  kept: KeptJson | null
}
const searchAnswers = new WeakMap<readonly number[], Map<string, RangeAnswer>>()
function searchAnswer(search: SlotSearch): KeptJson {
  let byRange = searchAnswers.get(search.sold)
  if (!byRange) {
    byRange = new Map()
    searchAnswers.set(search.sold, byRange)
  }
  const key = `${search.range.from}:${search.range.untilExclusive}`
  let answer = byRange.get(key)
  if (answer === undefined) {
    answer = {
      openSlots: `[${search.openSlots().join(',')}]`,
      event: null,
      timeZoneId: '',
      minAvailable: null,
      kept: null,
    }
    if (byRange.size >= RANGES_PER_LIST) byRange.clear()
    byRange.set(key, answer)
  }
  // (the last slot's start follows from the event and the zone: only the first moves with the clock)
  const { minAvailableSlotEpochMs } = search.availability
  if (
    answer.kept === null ||
    answer.event !== search.event ||
    answer.timeZoneId !== search.device.timeZoneId ||
    answer.minAvailable !== minAvailableSlotEpochMs
  ) {
    answer.event = search.event
    answer.timeZoneId = search.device.timeZoneId
    answer.minAvailable = minAvailableSlotEpochMs
    answer.kept = keptJson(searchJson(answer.openSlots, search.event, restOf(search)))
  }
  return answer.kept
}

// A code for PUBLIC_BASE_URL is the same for everyone: shared caches may keep it. A code made from
// the request's own host may differ by host: only the asker's browser keeps it.
const QR_HEADERS = { 'Cache-Control': 'public, max-age=3600' }
const QR_HEADERS_BY_HOST = { 'Cache-Control': 'private, max-age=3600', Vary: 'Host' }

export function catalogueRoutes(
  router: ApiRouter,
  deps: {
    catalogue: CatalogueService
    limits: ClientLimits
    /** PUBLIC_BASE_URL: the only address QR codes open, when set. */
    publicBaseUrl: string | undefined
    /** Without it, the hosts a request may name (platform/http/client.ts: allowedHosts). */
    allowedHosts: ReadonlySet<string>
    trustProxy: number
  },
) {
  const { catalogue: service } = deps

  router.handle(spotlight.event, async ({ params }) => {
    const event = await service.findEvent(params.slug)
    return mapErr(event, catalogueRefusal)
  })

  router.handle(spotlight.liveEvents, async () => ok({ events: await service.liveEvents() }))

  router.handle(spotlight.devices, async ({ params, query }) => {
    const page = await service.devicesPage(params.slug, query)
    return mapErr(page, catalogueRefusal)
  })

  router.handle(spotlight.slotSearch, async ({ c, body }) => {
    const found = await service.searchSlots(body)
    if (!found.ok) return err(catalogueRefusal(found.error))
    const search = found.value
    // The hottest answer of the shop: the event part is serialised once per catalogue read and the
    // slot list joined directly (the same JSON as c.json would write).
    if (search.closed)
      return ok(await jsonAnswer(c, searchJson('[]', search.event, restOf(search))))
    return ok(await keptJsonAnswer(c, searchAnswer(search)))
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
        return err({ problems: [problem('host_not_allowed')] })
      }
      const code = await service.qrCode(params.slug, params.deviceId, format, origin)
      if (!code.ok) return err(catalogueRefusal(code.error))
      const headers = deps.publicBaseUrl ? QR_HEADERS : QR_HEADERS_BY_HOST
      return ok(c.body(code.value, 200, { ...headers, 'Content-Type': type }))
    })
  }

  // spec §5 promo lookup, rate limited per client address (code guessing), on the counter an
  // order naming a code shares.
  router.handle(
    spotlight.promo,
    async ({ params, query }) => {
      const code = v.safeParse(PromoCodeSchema, params.promoCode)
      if (!code.success) return err(promoRefusal({ code: 'promo_invalid' }))
      const checked = await service.promos.check(code.output, query.eventSlug, query.email ?? null)
      return mapErr(
        mapOk(checked, (value) => value.promo),
        promoRefusal,
      )
    },
    deps.limits.promoChecks,
  )
}
