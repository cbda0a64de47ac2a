import { and, eq } from 'drizzle-orm'
import type { Device, ShoutEvent } from '../contract/index.ts'
import { devices, eventDevices, events } from './db/schema/core.ts'
import type { Db } from './platform/db/client.ts'

// Reads of the catalogue in the shapes of api-v1. The catalogue changes only by import, so rows are
// kept for a few seconds: the hot paths (slot search, orders) then cost no catalogue query.
const TTL_MS = 2000

type EventRow = typeof events.$inferSelect
type DeviceRow = typeof devices.$inferSelect

export function eventToApi(row: EventRow): ShoutEvent {
  return {
    slug: row.slug,
    name: row.name,
    startDateHourLocalInclusive: row.startDateHourLocalInclusive,
    endDateHourLocalExclusive: row.endDateHourLocalExclusive,
    slotWidthMS: row.slotWidthMS,
    allowedContentGeneratorTypes: row.allowedContentGeneratorTypes,
    valueCentsPerSlot: row.valueCentsPerSlot,
    currency: row.currency,
    branded: row.branded,
    sponsorName: row.sponsorName,
    minPresaleSlotEpochMs: row.minPresaleSlotEpochMs,
  }
}

export function deviceToApi(row: DeviceRow, unavailableForEvent: boolean): Device {
  return {
    deviceId: row.deviceId,
    location: row.location,
    trafficDirection: row.trafficDirection as Device['trafficDirection'],
    coordinates: { lat: row.lat, lng: row.lng },
    viewingAreaCoordinates: row.viewingAreaCoordinates,
    screens: row.screens,
    imageUrl: row.imageUrl,
    streetViewUrl: row.streetViewUrl,
    soldOut: row.soldOut,
    unavailableForEvent,
    city: row.city,
    stateAbbr: row.stateAbbr,
    country: row.country,
    timeZoneId: row.timeZoneId,
    contentWidth: row.contentWidth,
    contentHeight: row.contentHeight,
  }
}

export type CatalogueReads = {
  event(slug: string): Promise<ShoutEvent | null>
  /** The device as listed for the event, or null when the event does not show it. */
  eventDevice(slug: string, deviceId: string): Promise<Device | null>
}

export function createCatalogueReads(db: Db, now: () => number = Date.now): CatalogueReads {
  const eventCache = new Map<string, { at: number; value: ShoutEvent | null }>()
  const deviceCache = new Map<string, { at: number; value: Device | null }>()
  const cached = async <T>(
    cache: Map<string, { at: number; value: T }>,
    key: string,
    load: () => Promise<T>,
  ): Promise<T> => {
    const hit = cache.get(key)
    const t = now()
    if (hit && t - hit.at < TTL_MS) return hit.value
    const value = await load()
    // An unbounded map of unknown slugs would be a memory leak an attacker could drive.
    if (cache.size > 5000) cache.clear()
    cache.set(key, { at: t, value })
    return value
  }
  return {
    event: (slug) =>
      cached(eventCache, slug, async () => {
        const rows = await db.select().from(events).where(eq(events.slug, slug))
        return rows[0] ? eventToApi(rows[0]) : null
      }),
    eventDevice: (slug, deviceId) =>
      cached(deviceCache, `${slug}\u0000${deviceId}`, async () => {
        const rows = await db
          .select({ device: devices, unavailable: eventDevices.unavailable })
          .from(eventDevices)
          .innerJoin(devices, eq(devices.deviceId, eventDevices.deviceId))
          .where(and(eq(eventDevices.eventSlug, slug), eq(eventDevices.deviceId, deviceId)))
        const row = rows[0]
        return row ? deviceToApi(row.device, row.unavailable) : null
      }),
  }
}
