import { Temporal } from 'temporal-polyfill'
import type {
  OpsAdPlay,
  OpsBillboard,
  OpsScheduleDay,
  OpsSlot,
  PlayerLink,
  PlayerLinkState,
} from '../../contract/ops/billboards.ts'
import { zonedDateTimeAt } from '../../domain/dates.ts'
import { mayPlay, playsOfSlot } from '../../domain/schedule.ts'
import { slotEndEpochMs, slotStartEpochMs, slotsOfDay } from '../../domain/slots.ts'
import type { AdvertisersReads } from '../advertisers/service.ts'
import type { AuthService, Operator } from '../auth/service.ts'
import { billboard, billboards, eventsOfDevice } from '../catalogue/reads.ts'
import { reservationsOfSlots } from '../order/reads.ts'
import type { Database } from '../platform/db/client.ts'
import { err, ok, type Result } from '../platform/result.ts'
import { playerLinksMade, proofsOfSlots } from '../player/reads.ts'
import type { PlayerService } from '../player/service.ts'

// The console's billboards: the list with their player links, a billboard's day (what plays when,
// sold and free slots, the proof of each past play), and new player links (the player module makes
// them). The billboards are the catalogue's, the reservations the order module's, the links and the
// proofs the player module's, each read through its owner's read model.

export type BillboardsError = { code: 'device_not_found' }

const linkState = (createdAtEpochMs: number | null): PlayerLinkState => ({
  active: createdAtEpochMs !== null,
  createdAtEpochMs,
})

export const todayIn = (timeZoneId: string, epochMs: number) =>
  zonedDateTimeAt(epochMs, timeZoneId).toPlainDate().toString()

export function createConsoleBillboards(deps: {
  database: Database
  now: () => number
  player: PlayerService
  auth: AuthService
  ads: AdvertisersReads
}) {
  const db = deps.database

  async function listBillboards(): Promise<OpsBillboard[]> {
    const now = deps.now()
    const links = await playerLinksMade(db)
    return (await billboards(db)).map((row) => ({
      deviceId: row.deviceId,
      location: row.location,
      city: row.city,
      timeZoneId: row.timeZoneId,
      eventSlugs: row.eventSlugs,
      today: todayIn(row.timeZoneId, now),
      playerLink: linkState(links.get(row.deviceId) ?? null),
    }))
  }

  /**
   * A billboard's local day (its zone): for each of its events the slots that start that day, each
   * free, held (being paid) or sold, with the order's content, and for a sold slot its plays
   * (src/domain/schedule.ts) with their proof: a play of a Confirmed order that ended without a
   * proof is `missing`. Then the plays campaigns hold that day (the advertisers' service), proven
   * or missing alike; what is neither is the house card's time.
   */
  async function scheduleDay(
    deviceId: string,
    day: string | undefined,
  ): Promise<Result<OpsScheduleDay, BillboardsError>> {
    const now = deps.now()
    const device = await billboard(db, deviceId)
    if (!device) return err({ code: 'device_not_found' })
    const linkMade = (await playerLinksMade(db)).get(deviceId) ?? null
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
    const dayStartEpochMs = date.toZonedDateTime({ timeZone: tz }).epochMilliseconds
    const dayEndEpochMs = date.add({ days: 1 }).toZonedDateTime({ timeZone: tz }).epochMilliseconds
    const held = await deps.ads.playsOnBillboard(deviceId, dayStartEpochMs, dayEndEpochMs)
    const adPlays = held.map(
      (play): OpsAdPlay => ({
        campaignId: play.campaignId,
        campaignName: play.campaignName,
        startEpochMs: play.startEpochMs,
        endEpochMs: play.endEpochMs,
        proof: play.proven
          ? 'proved'
          : play.state !== 'Approved' && play.state !== 'Live'
            ? 'not-playing'
            : play.endEpochMs <= now
              ? 'missing'
              : 'upcoming',
      }),
    )
    return ok({
      deviceId,
      location: device.location,
      timeZoneId: tz,
      day: date.toString(),
      dayStartEpochMs,
      dayEndEpochMs,
      previousDay: date.subtract({ days: 1 }).toString(),
      nextDay: date.add({ days: 1 }).toString(),
      generatedAtEpochMs: now,
      playerLink: linkState(linkMade),
      events,
      adPlays,
      totals,
    })
  }

  /** A new player link (the player module's, as `npm run player-link` makes it). */
  async function makePlayerLink(
    deviceId: string,
    operator: Operator,
  ): Promise<Result<PlayerLink, BillboardsError>> {
    // the audit says who made it, never the token
    const linked = await deps.player.link(deviceId, (tx) =>
      deps.auth.recordAudit(tx, { operator, action: 'player_link', detail: { deviceId } }),
    )
    if (!linked.ok) return err({ code: 'device_not_found' })
    return ok({ deviceId, url: linked.value.url, createdAtEpochMs: deps.now() })
  }

  return { listBillboards, scheduleDay, makePlayerLink }
}
