import { createHash } from 'node:crypto'
import { Temporal } from 'temporal-polyfill'
import type {
  CatalogueApplied,
  CatalogueChanges,
  CataloguePreview,
  Dashboard,
  DashboardEvent,
  OpsBillboard,
  OpsScheduleDay,
  OpsSlot,
  PlayerLink,
  PlayerLinkState,
} from '../../contract/ops-console.ts'
import { ORDER_STATES } from '../../contract/order.ts'
import { zonedDateTimeAt } from '../../domain/dates.ts'
import { eventWindowEpochMs, slotsPerDevice } from '../../domain/event.ts'
import { mayPlay, playsOfSlot } from '../../domain/schedule.ts'
import { slotEndEpochMs, slotStartEpochMs, slotsOfDay } from '../../domain/slots.ts'
import { type Operator, recordAudit } from '../auth/repo.ts'
import { knownIds } from '../catalogue/repo.ts'
import { catalogueChanges, checkCatalogue, importCatalogue } from '../catalogue/service.ts'
import type { Database } from '../platform/db/client.ts'
import { err, ok, type Result } from '../platform/result.ts'
import { eventsOfDevice } from '../player/repo.ts'
import type { PlayerService } from '../player/service.ts'
import type { SpotlightService } from '../spotlight/service.ts'
import {
  type BillboardRow,
  billboard,
  billboards,
  devicesOfEvent,
  ordersByState,
  proofsOfSlots,
  reservationsOfSlots,
  revenue,
  salesByQuarterHour,
  soldSlotCount,
} from './repo.ts'

// The console's second part: a billboard's day (what plays when, sold and free slots, the
// proof of each past play), player links (the player module makes them), the catalogue upload (the
// checks and import of catalogue/, previewed first) and the dashboard of the live events. Answers are
// results with typed errors; routes.ts gives each its status.

export type BackofficeError =
  | { code: 'device_not_found' }
  | { code: 'catalogue_not_json'; message: string }
  | { code: 'catalogue_invalid'; problems: string[] }
  /** The apply call's file is not the one previewed (its SHA-256 differs). */
  | { code: 'catalogue_not_previewed' }

export type BackofficeDeps = {
  database: Database
  now: () => number
  player: PlayerService
  spotlight: SpotlightService
}

export type BackofficeService = ReturnType<typeof createBackofficeService>

const sha256 = (text: string) => createHash('sha256').update(text, 'utf8').digest('hex')

const linkState = (row: BillboardRow): PlayerLinkState => ({
  active: row.linkCreatedAtEpochMs !== null,
  createdAtEpochMs: row.linkCreatedAtEpochMs,
})

const todayIn = (timeZoneId: string, epochMs: number) =>
  zonedDateTimeAt(epochMs, timeZoneId).toPlainDate().toString()

/** The file's text as JSON, or the parser's reason (reported at the root path like the others). */
function parseFile(text: string): Result<unknown, BackofficeError> {
  try {
    return ok(JSON.parse(text))
  } catch (error) {
    return err({
      code: 'catalogue_not_json',
      message: `$: is not JSON (${(error as Error).message})`,
    })
  }
}

/** How many of each kind were added and changed (the audit row's summary). */
const counts = (changes: CatalogueChanges) =>
  Object.fromEntries(
    Object.entries(changes).map(([kind, c]) => [
      kind,
      { added: c.added.length, changed: c.changed.length },
    ]),
  )

export function createBackofficeService(deps: BackofficeDeps) {
  const db = deps.database

  async function listBillboards(): Promise<OpsBillboard[]> {
    const now = deps.now()
    return (await billboards(db)).map((row) => ({
      deviceId: row.deviceId,
      location: row.location,
      city: row.city,
      timeZoneId: row.timeZoneId,
      eventSlugs: row.eventSlugs,
      today: todayIn(row.timeZoneId, now),
      playerLink: linkState(row),
    }))
  }

  /**
   * A billboard's local day (its zone): for each of its events the slots that start that day, each
   * free, held (being paid) or sold, with the order's content, and for a sold slot its plays
   * (src/domain/schedule.ts) with their proof: a play of a Confirmed order that ended without a
   * proof is `missing`.
   */
  async function scheduleDay(
    deviceId: string,
    day: string | undefined,
  ): Promise<Result<OpsScheduleDay, BackofficeError>> {
    const now = deps.now()
    const device = await billboard(db, deviceId)
    if (!device) return err({ code: 'device_not_found' })
    const tz = device.timeZoneId
    const date = Temporal.PlainDate.from(day ?? todayIn(tz, now))
    const totals = { slots: 0, sold: 0, held: 0, free: 0, proved: 0, missing: 0 }
    const events: OpsScheduleDay['events'] = []
    for (const event of await eventsOfDevice(db, deviceId)) {
      const numbers = slotsOfDay(event, tz, date)
      const first = numbers[0]
      const last = numbers[numbers.length - 1]
      const slots: OpsSlot[] = []
      if (first !== undefined && last !== undefined) {
        const reservations = new Map(
          (await reservationsOfSlots(db, event.slug, deviceId, first, last)).map((r) => [
            r.slotNumber,
            r,
          ]),
        )
        const proofs = new Map(
          (await proofsOfSlots(db, deviceId, event.slug, first, last)).map((p) => [
            `${p.orderGuid}/${p.slotNumber}/${p.playIndex}`,
            p.startedAtEpochMs,
          ]),
        )
        for (const slotNumber of numbers) {
          const reservation = reservations.get(slotNumber)
          const plays = playsOfSlot(event, tz, slotNumber)
          const state = reservation?.state
          const status: OpsSlot['status'] =
            state === 'Processing'
              ? 'held'
              : state === 'Confirmed' || state === 'UnderReview'
                ? 'sold'
                : 'free'
          totals.slots++
          totals[status]++
          const slot: OpsSlot = {
            slotNumber,
            startEpochMs: slotStartEpochMs(event, tz, slotNumber),
            endEpochMs: slotEndEpochMs(event, tz, slotNumber),
            status,
            order:
              reservation && status !== 'free'
                ? {
                    guid: reservation.orderGuid,
                    state: reservation.state,
                    email: reservation.email,
                    content:
                      reservation.contentUrl && reservation.contentType
                        ? { url: reservation.contentUrl, type: reservation.contentType }
                        : null,
                  }
                : null,
            plays:
              reservation && status === 'sold'
                ? plays.map((play) => {
                    const provedAt =
                      proofs.get(`${reservation.orderGuid}/${slotNumber}/${play.playIndex}`) ?? null
                    const proof = !mayPlay(reservation.state)
                      ? 'not-playing'
                      : provedAt !== null
                        ? 'proved'
                        : play.endEpochMs <= now
                          ? 'missing'
                          : 'upcoming'
                    if (proof === 'proved') totals.proved++
                    if (proof === 'missing') totals.missing++
                    return { ...play, proof, provedAtEpochMs: provedAt }
                  })
                : [],
          }
          slots.push(slot)
        }
      }
      events.push({
        slug: event.slug,
        name: event.name,
        playsPerSlot: event.playsPerSlot,
        secondsPerShout: event.secondsPerShout,
        slots,
      })
    }
    return ok({
      deviceId,
      location: device.location,
      timeZoneId: tz,
      day: date.toString(),
      previousDay: date.subtract({ days: 1 }).toString(),
      nextDay: date.add({ days: 1 }).toString(),
      generatedAtEpochMs: now,
      playerLink: linkState(device),
      events,
      totals,
    })
  }

  /** A new player link (the player module's, as `npm run player-link` makes it). */
  async function makePlayerLink(
    deviceId: string,
    operator: Operator,
  ): Promise<Result<PlayerLink, BackofficeError>> {
    // the audit says who made it, never the token
    const linked = await deps.player.link(deviceId, (tx) =>
      recordAudit(tx, { operator, action: 'player_link', detail: { deviceId } }, deps.now()),
    )
    if (!linked.ok) return err({ code: 'device_not_found' })
    return ok({ deviceId, url: linked.value.url, createdAtEpochMs: deps.now() })
  }

  /** The checks of `npm run import` on an uploaded file; a clean one says what it changes. */
  async function previewCatalogue(text: string): Promise<CataloguePreview> {
    const hash = sha256(text)
    const parsed = parseFile(text)
    if (!parsed.ok) {
      const problem = parsed.error.code === 'catalogue_not_json' ? parsed.error.message : ''
      return { sha256: hash, problems: [problem], changes: null }
    }
    const check = checkCatalogue(parsed.value, await knownIds(db))
    if (!check.success) return { sha256: hash, problems: check.errors, changes: null }
    return { sha256: hash, problems: [], changes: await catalogueChanges(db, check.catalogue) }
  }

  /**
   * Applies the file previewed: the same text (its SHA-256 is the preview's), checked again and
   * imported in one transaction by catalogue/ (nothing is written on a problem).
   */
  async function applyCatalogue(
    text: string,
    previewedSha256: string,
    operator: Operator,
  ): Promise<Result<CatalogueApplied, BackofficeError>> {
    const hash = sha256(text)
    if (hash !== previewedSha256) return err({ code: 'catalogue_not_previewed' })
    const parsed = parseFile(text)
    if (!parsed.ok) return parsed
    const check = checkCatalogue(parsed.value, await knownIds(db))
    if (!check.success) return err({ code: 'catalogue_invalid', problems: check.errors })
    const changes = await catalogueChanges(db, check.catalogue)
    const imported = await importCatalogue(db, parsed.value, (tx) =>
      recordAudit(
        tx,
        {
          operator,
          action: 'catalogue_import',
          detail: { sha256: hash, changes: counts(changes) },
        },
        deps.now(),
      ),
    )
    if (!imported.success) return err({ code: 'catalogue_invalid', problems: imported.errors })
    deps.spotlight.forgetCatalogue()
    return ok({ sha256: hash, changes })
  }

  /** Per live event (spotlight's: not over anywhere yet) the figures of the dashboard. */
  async function dashboard(): Promise<Dashboard> {
    const now = deps.now()
    const events: DashboardEvent[] = []
    for (const event of await deps.spotlight.liveEvents()) {
      const devices = await devicesOfEvent(db, event.slug)
      const zone = devices[0]?.timeZoneId ?? 'UTC'
      const window = eventWindowEpochMs(event, zone)
      const capacity = devices
        .filter((d) => d.sells)
        .reduce((sum, d) => sum + slotsPerDevice(event, d.timeZoneId), 0)
      const states = await ordersByState(db, event.slug)
      const byState: Record<string, number> = Object.fromEntries(ORDER_STATES.map((s) => [s, 0]))
      for (const row of states) byState[row.state] = row.n
      const money = await revenue(db, event.slug)
      const days = new Map<string, { orders: number; cents: number }>()
      for (const quarter of await salesByQuarterHour(db, event.slug)) {
        const day = todayIn(zone, quarter.quarterEpochMs)
        const sums = days.get(day) ?? { orders: 0, cents: 0 }
        sums.orders += quarter.orders
        sums.cents += quarter.cents
        days.set(day, sums)
      }
      events.push({
        slug: event.slug,
        name: event.name,
        currency: event.currency,
        startEpochMs: window.startEpochMs,
        endEpochMs: window.endEpochMs,
        capacity,
        sold: await soldSlotCount(db, event.slug),
        revenue: {
          ...money,
          netCents: money.grossCents - money.discountCents - money.refundedCents,
        },
        ordersByState: byState,
        reviewQueue: byState.UnderReview ?? 0,
        salesPerDay: [...days].map(([day, sums]) => ({ day, ...sums })),
      })
    }
    return { generatedAtEpochMs: now, events }
  }

  return {
    listBillboards,
    scheduleDay,
    makePlayerLink,
    previewCatalogue,
    applyCatalogue,
    dashboard,
  }
}
