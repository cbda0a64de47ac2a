import type { AdRevenue, Dashboard, DashboardEvent } from '../../contract/ops/dashboard.ts'
import { ORDER_STATES } from '../../contract/order.ts'
import { eventWindowEpochMs, slotsPerDevice } from '../../domain/event.ts'
import type { AdvertisersReads } from '../advertisers/service.ts'
import { devicesOfEvent } from '../catalogue/reads.ts'
import type { CatalogueService } from '../catalogue/service.ts'
import { ordersByState, revenue, salesByQuarterHour, soldSlotCount } from '../order/reads.ts'
import type { Database } from '../platform/db/client.ts'
import { todayIn } from './billboards.ts'
import { playsPerDay } from './dashboard-plays.ts'

// The console's dashboard: per live event its capacity, the slots sold, the revenue net of refunds,
// the orders by state and the sales per day (the catalogue's and the order module's read models),
// the plays due, proven and missed and the make-goods' refunds per day (dashboard-plays.ts); and the
// advertisers' charged money (their service).

/** The days the dashboard draws advertisers' money for. */
const AD_REVENUE_DAYS = 30
const DAY_MS = 86_400_000

export function createDashboard(deps: {
  database: Database
  now: () => number
  catalogue: CatalogueService
  ads: AdvertisersReads
  /** MAKE_GOOD_GRACE_HOURS: when a play without proof counts as missed */
  graceHours: number
}) {
  const db = deps.database

  /** Per live event (spotlight's: not over anywhere yet) the figures of the dashboard. */
  async function dashboard(): Promise<Dashboard> {
    const now = deps.now()
    const events: DashboardEvent[] = []
    for (const event of await deps.catalogue.liveEvents()) {
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
        timeZoneId: zone,
        timeZoneIds: [...new Set(devices.map((d) => d.timeZoneId))],
        capacity,
        sold: await soldSlotCount(db, event.slug),
        revenue: {
          ...money,
          netCents: money.grossCents - money.discountCents - money.refundedCents,
        },
        ordersByState: byState,
        reviewQueue: byState.UnderReview ?? 0,
        salesPerDay: [...days].map(([day, sums]) => ({ day, ...sums })),
        ...(await playsPerDay(db, event, devices, zone, now, deps.graceHours)),
      })
    }
    return { generatedAtEpochMs: now, events, adRevenue: await adRevenue(now) }
  }

  /** Per currency, all charged money, and per day the last 30 days' (a day named by UTC's calendar). */
  async function adRevenue(now: number): Promise<AdRevenue[]> {
    const since = new Date(now - (AD_REVENUE_DAYS - 1) * DAY_MS).toISOString().slice(0, 10)
    const byCurrency = new Map<string, AdRevenue>()
    for (const row of await deps.ads.revenueByDay('0000-01-01')) {
      const sums = byCurrency.get(row.currency) ?? {
        currency: row.currency,
        chargedCents: 0,
        charges: 0,
        perDay: [],
      }
      sums.chargedCents += row.cents
      sums.charges += row.charges
      if (row.day >= since)
        sums.perDay.push({ day: row.day, cents: row.cents, charges: row.charges })
      byCurrency.set(row.currency, sums)
    }
    return [...byCurrency.values()]
  }

  return { dashboard }
}
