import { getConnInfo } from '@hono/node-server/conninfo'
import { asc, count, desc, eq } from 'drizzle-orm'
import * as v from 'valibot'
import { PromoCodeSchema, type SlotSearchResponse, spotlight } from '../../contract/index.ts'
import {
  availabilityWindow,
  eventWindowEpochMs,
  messages,
  openSlotNumbers,
  openSlotRange,
} from '../../domain/index.ts'
import { deviceToApi, eventToApi } from '../catalogue-reads.ts'
import { devices, eventDevices, events } from '../db/schema/core.ts'
import type { ServerDeps } from '../deps.ts'
import { errorResponse, fail } from '../platform/http/errors.ts'
import { createRateLimiter } from '../platform/http/rate-limit.ts'
import type { ApiRouter } from '../platform/http/router.ts'
import { checkPromo } from '../promos.ts'

const ORDER_COLUMNS = {
  id: devices.deviceId,
  city: devices.city,
  location: devices.location,
} as const

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
const NO_SLOTS: readonly number[] = Object.freeze([])
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

export function spotlightRoutes(router: ApiRouter, deps: ServerDeps) {
  const { db, catalogue, now } = deps
  const promoLimiter = createRateLimiter(deps.env.PROMO_LOOKUPS_PER_MINUTE, 60_000)

  const eventOr404 = async (slug: string) =>
    (await catalogue.event(slug)) ?? fail(404, messages.eventNotFound)

  router.handle(spotlight.event, async ({ params }) => eventOr404(params.slug))

  // The events not over yet anywhere: an event ends last in the westernmost zone (UTC-12).
  router.handle(spotlight.liveEvents, async () => {
    const rows = await db.select().from(events).orderBy(asc(events.slug))
    const live = rows
      .map(eventToApi)
      .filter((e) => eventWindowEpochMs(e, 'Etc/GMT+12').endEpochMs > now())
    return { events: live }
  })

  // spec §9: device list page size 200, offset 0, sorted by id ascending by default.
  router.handle(spotlight.devices, async ({ params, query }) => {
    const { slug } = params
    await eventOr404(slug)
    const column = ORDER_COLUMNS[query.orderBy]
    const direction = query.sortDirection === 'desc' ? desc : asc
    const where = eq(eventDevices.eventSlug, slug)
    const [rows, totals] = await Promise.all([
      db
        .select({ device: devices, unavailable: eventDevices.unavailable })
        .from(eventDevices)
        .innerJoin(devices, eq(devices.deviceId, eventDevices.deviceId))
        .where(where)
        .orderBy(direction(column), direction(devices.deviceId))
        .limit(query.limit)
        .offset(query.offset),
      db.select({ total: count() }).from(eventDevices).where(where),
    ])
    return {
      devices: rows.map((r) => deviceToApi(r.device, r.unavailable)),
      pagination: { ...query, total: totals[0]?.total ?? 0 },
    }
  })

  // api-v1 slot search: open slots of [start, end) for the device, with the 5-hour cut-off.
  router.handle(spotlight.slotSearch, async ({ c, body }) => {
    const event = await eventOr404(body.eventSlug)
    const device =
      (await catalogue.eventDevice(body.eventSlug, body.deviceId)) ??
      fail(404, messages.deviceNotFound)
    const nowMs = now()
    // A sold-out billboard or one not available for the event has nothing to sell (spec §8).
    const closed = device.soldOut || device.unavailableForEvent
    const sold = closed ? NO_SLOTS : await deps.soldSlots.get(event.slug, device.deviceId)
    const query = {
      event,
      timeZoneId: device.timeZoneId,
      startEpochMs: body.startEpochMs,
      endEpochMs: body.endEpochMs,
      nowEpochMs: nowMs,
    }
    const openSlots = closed
      ? '[]'
      : openSlotsJson(sold, openSlotRange(query), () =>
          openSlotNumbers({ ...query, soldSlots: sold }),
        )
    const rest = {
      ...availabilityWindow(event, device.timeZoneId, nowMs),
      minPresaleSlotEpochMs: event.minPresaleSlotEpochMs,
      timeZoneId: device.timeZoneId,
      valueCentsPerSlot: event.valueCentsPerSlot,
    } satisfies Omit<SlotSearchResponse, 'openSlots' | 'event'>
    // The hottest answer of the shop: the event part is serialised once per catalogue read and the
    // slot list joined directly (the same JSON as c.json would write).
    const json = `{"openSlots":${openSlots},"event":${eventJson(event)},${JSON.stringify(rest).slice(1)}`
    return c.body(json, 200, { 'Content-Type': 'application/json' })
  })

  // spec §5 promo lookup, rate limited per client address (issue 3: code guessing).
  router.handle(spotlight.promo, async ({ c, params, query }) => {
    const address = clientAddress(c)
    const take = promoLimiter.take(address, now())
    if (!take.allowed) {
      c.header('Retry-After', String(take.retryAfterS))
      return errorResponse(c, 429, messages.promoTooManyLookups)
    }
    const code = v.safeParse(PromoCodeSchema, params.promoCode)
    if (!code.success) return errorResponse(c, 404, messages.promoInvalid)
    const result = await checkPromo(db, code.output, query.eventSlug, query.email ?? null)
    if (!result.ok) return errorResponse(c, result.status, result.error)
    return c.json(result.promo)
  })
}

function clientAddress(c: Parameters<typeof getConnInfo>[0]): string {
  try {
    return getConnInfo(c).remote.address ?? 'unknown'
  } catch {
    return 'unknown'
  }
}
