import type { Dashboard, DashboardEvent } from '../../contract/ops/dashboard.ts'
import { ORDER_STATES } from '../../contract/order.ts'
import { eventWindowEpochMs, slotsPerDevice } from '../../domain/event.ts'
import { devicesOfEvent } from '../catalogue/reads.ts'
import type { CatalogueService } from '../catalogue/service.ts'
import { ordersByState, revenue, salesByQuarterHour, soldSlotCount } from '../order/reads.ts'
import type { Database } from '../platform/db/client.ts'
import { todayIn } from './billboards.ts'

// The console's dashboard: per live event its capacity, the slots sold, the revenue net of refunds,
// the orders by state and the sales per day (the catalogue's and the order module's read models).

export function createDashboard(deps: {
  database: Database
  now: () => number
  catalogue: CatalogueService
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

  return { dashboard }
}
