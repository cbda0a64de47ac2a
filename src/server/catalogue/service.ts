import QRCode from 'qrcode'
import type {
  CatalogueChanges,
  Device,
  DevicesPage,
  DevicesQuery,
  ShoutEvent,
  SlotSearchRequest,
} from '../../contract/index.ts'
import { withCountryCode } from '../../domain/country.ts'
import {
  availabilityWindow,
  eventWindowEpochMs,
  openSlotNumbers,
  openSlotRange,
} from '../../domain/index.ts'
import type { Database, Queryable } from '../platform/db/client.ts'
import { err, ok, type Result } from '../platform/result.ts'
import type { Catalogue } from './format.ts'
import { catalogueChanges, importCatalogue } from './import.ts'
import { createPromoCheck } from './promos.ts'
import { allEvents, eventBySlug, eventDevice, eventDevicesPage, knownIds } from './repo.ts'

// The catalogue: what the shop sells. api-v1 "Spotlight" (its paths are /spotlight/...): the events,
// their billboards, the open slots of a billboard, the QR code printed on each billboard, and promo
// codes (promos.ts); the catalogue's import (format.ts, import.ts) by `npm run import`, the console
// and a new shop's demo catalogue.

export { checkCatalogue } from './format.ts'
export { importCatalogue, seedEmptyShop } from './import.ts'

export type CatalogueError =
  | EventNotFound
  | { code: 'device_not_found' }
  /** A QR code of a billboard the event does not show. */
  | { code: 'device_not_in_event'; slug: string; deviceId: string }

type EventNotFound = { code: 'event_not_found' }

/** The event and its billboards as the shop reads them everywhere (orders, pre-rendered pages). */
export type CatalogueReads = {
  event(slug: string): Promise<ShoutEvent | null>
  /** The device as listed for the event, or null when the event does not show it. */
  eventDevice(slug: string, deviceId: string): Promise<Device | null>
}

export type SlotSearch = {
  event: ShoutEvent
  device: Device
  nowMs: number
  /** A sold-out billboard or one not available for the event has nothing to sell (spec §8). */
  closed: boolean
  /**
   * The sold slots the answer is made from: the same array until a sale or a release changes it
   * (order/sold-slots.ts), so a caller may key a cache by it.
   */
  sold: readonly number[]
  /** The slot numbers the search covers (from the 5-hour cut-off on). */
  range: { from: number; untilExclusive: number }
  /** The open slots of the range (computed on demand). */
  openSlots(): number[]
  availability: { minAvailableSlotEpochMs: number | null; maxAvailableSlotEpochMs: number }
}

/** QR entry: the address a billboard's code opens, the flow with that billboard chosen. */
export function qrTargetUrl(baseUrl: string, slug: string, deviceId: string): string {
  const base = baseUrl.replace(/\/+$/, '')
  return `${base}/${encodeURIComponent(slug)}?device=${encodeURIComponent(deviceId)}`
}

// Quartile error correction: a printed code on a billboard gets scratched and partly covered.
const QR_OPTIONS = { errorCorrectionLevel: 'Q', margin: 2 } as const

// The catalogue changes only by import, so rows are kept for a few seconds: the hot paths (slot
// search, orders) then cost no catalogue query.
const CATALOGUE_TTL_MS = 2000
const NO_SLOTS: readonly number[] = Object.freeze([])

/**
 * Catalogue rows kept for CATALOGUE_TTL_MS. When one expires, the requests that ask for it meanwhile
 * share one query (16 connections asked 16 times at each expiry); a load that started before
 * clear() (a catalogue import) is not kept.
 */
function catalogueCache<T>(now: () => number) {
  const rows = new Map<string, { at: number; value: T }>()
  const loading = new Map<string, Promise<T>>()
  let generation = 0
  return {
    get(key: string, load: () => Promise<T>): Promise<T> {
      const hit = rows.get(key)
      const t = now()
      if (hit && t - hit.at < CATALOGUE_TTL_MS) return Promise.resolve(hit.value)
      const pending = loading.get(key)
      if (pending) return pending
      const started = generation
      const loaded = load()
        .then((value) => {
          if (started === generation) {
            // An unbounded map of unknown slugs would be a memory leak an attacker could drive.
            if (rows.size > 5000) rows.clear()
            rows.set(key, { at: t, value })
          }
          return value
        })
        .finally(() => {
          if (loading.get(key) === loaded) loading.delete(key)
        })
      loading.set(key, loaded)
      return loaded
    },
    clear(): void {
      generation++
      rows.clear()
      loading.clear()
    },
  }
}

export type CatalogueService = ReturnType<typeof createCatalogueService>

export function createCatalogueService(deps: {
  db: Database
  /** The slots sold of a billboard (the order module's cache, order/sold-slots.ts). */
  soldSlots: { get(eventSlug: string, deviceId: string): Promise<readonly number[]> }
  /** Whether an e-mail (normalised) has an order with a code (the order module's read model). */
  redeemed: (promoCode: string, email: string) => Promise<boolean>
  now: () => number
  /** PUBLIC_BASE_URL; without it a QR code opens the origin the request came in on. */
  publicBaseUrl: string | undefined
}) {
  const { db, now } = deps
  const eventCache = catalogueCache<ShoutEvent | null>(now)
  const deviceCache = catalogueCache<Device | null>(now)
  const reads: CatalogueReads = {
    event: (slug) => eventCache.get(slug, () => eventBySlug(db, slug)),
    eventDevice: (slug, deviceId) =>
      deviceCache.get(`${slug}\u0000${deviceId}`, () => eventDevice(db, slug, deviceId)),
  }

  const findEvent = async (slug: string): Promise<Result<ShoutEvent, EventNotFound>> => {
    const event = await reads.event(slug)
    return event ? ok(event) : err({ code: 'event_not_found' })
  }

  return {
    /** An event and its billboards, kept a couple of seconds (the hot paths read them). */
    reads,
    /** spec §5 promo codes, checked by a lookup and by an order naming one. */
    promos: createPromoCheck({ db, redeemed: deps.redeemed }),
    findEvent,

    /** The ids stored, which a file may refer to (format.ts checkCatalogue). */
    knownIds: () => knownIds(db),
    /** What importing a checked file would add and change. */
    changes: (catalogue: Catalogue): Promise<CatalogueChanges> => catalogueChanges(db, catalogue),
    /** Imports a file in one transaction, `alsoIn` too (the console's audit row); then reads afresh. */
    async importFile(input: unknown, alsoIn?: (tx: Queryable) => Promise<void>) {
      const imported = await importCatalogue(db, input, alsoIn)
      if (imported.success) {
        eventCache.clear()
        deviceCache.clear()
      }
      return imported
    },

    /**
     * The console imported a catalogue; this instance reads it afresh at once (other
     * instances within CATALOGUE_TTL_MS).
     */
    forgetCatalogue(): void {
      eventCache.clear()
      deviceCache.clear()
    },

    /** The events not over yet anywhere: an event ends last in the westernmost zone (UTC-12). */
    async liveEvents(): Promise<ShoutEvent[]> {
      const events = await allEvents(db)
      return events.filter((e) => eventWindowEpochMs(e, 'Etc/GMT+12').endEpochMs > now())
    },

    // spec §9: device list page size 200, offset 0, sorted by id ascending by default.
    async devicesPage(
      slug: string,
      query: DevicesQuery,
    ): Promise<Result<DevicesPage, EventNotFound>> {
      const event = await findEvent(slug)
      if (!event.ok) return event
      const page = await eventDevicesPage(db, slug, query)
      return ok({
        devices: page.devices.map(withCountryCode),
        pagination: { ...query, total: page.total },
      })
    },

    // api-v1 slot search: open slots of [start, end) for the device, with the 5-hour cut-off.
    async searchSlots(
      request: SlotSearchRequest,
    ): Promise<Result<SlotSearch, EventNotFound | { code: 'device_not_found' }>> {
      const event = await reads.event(request.eventSlug)
      if (!event) return err({ code: 'event_not_found' })
      const device = await reads.eventDevice(request.eventSlug, request.deviceId)
      if (!device) return err({ code: 'device_not_found' })
      const nowMs = now()
      const closed = device.soldOut || device.unavailableForEvent
      const sold = closed ? NO_SLOTS : await deps.soldSlots.get(event.slug, device.deviceId)
      const query = {
        event,
        timeZoneId: device.timeZoneId,
        startEpochMs: request.startEpochMs,
        endEpochMs: request.endEpochMs,
        nowEpochMs: nowMs,
      }
      return ok({
        event,
        device,
        nowMs,
        closed,
        sold,
        range: openSlotRange(query),
        openSlots: () => (closed ? [] : openSlotNumbers({ ...query, soldSlots: sold })),
        availability: availabilityWindow(event, device.timeZoneId, nowMs),
      })
    },

    /** A billboard's QR code (PNG 512 px, or SVG) opening {PUBLIC_BASE_URL}/{slug}?device={id}. */
    async qrCode(
      slug: string,
      deviceId: string,
      format: 'png' | 'svg',
      requestOrigin: string,
    ): Promise<
      Result<
        Uint8Array<ArrayBuffer> | string,
        Extract<CatalogueError, { code: 'device_not_in_event' }>
      >
    > {
      // Read fresh, not from the cache: a code is printed once and must open a billboard that exists.
      if (!(await eventDevice(db, slug, deviceId))) {
        return err({ code: 'device_not_in_event', slug, deviceId })
      }
      const url = qrTargetUrl(deps.publicBaseUrl ?? requestOrigin, slug, deviceId)
      return ok(
        format === 'png'
          ? new Uint8Array(await QRCode.toBuffer(url, { ...QR_OPTIONS, type: 'png', width: 512 }))
          : await QRCode.toString(url, { ...QR_OPTIONS, type: 'svg' }),
      )
    },
  }
}
