import * as v from 'valibot'
import {
  CurrencySchema,
  EpochMsSchema,
  EventSlugSchema,
  nonNegativeInt,
  TimeZoneIdSchema,
} from '../common'
import { endpoint } from '../endpoint'
import { CalendarDateSchema } from './billboards'

// The console's dashboard (api-v1 "Operations"): each event's figures and its sales by day
// (src/server/ops/dashboard.ts).

// ---------- dashboard ----------

export const DashboardEventSchema = v.object({
  slug: EventSlugSchema,
  name: v.string(),
  currency: CurrencySchema,
  startEpochMs: EpochMsSchema,
  endEpochMs: EpochMsSchema,
  /** The zone the event's times and days are written in (its first billboard's). */
  timeZoneId: v.optional(TimeZoneIdSchema, 'UTC'),
  /** Every zone its billboards are in: its hours are the same on each one's own clock. */
  timeZoneIds: v.optional(v.array(TimeZoneIdSchema), []),
  /** Slots of every billboard of the event that sells (not unavailable, not sold out). */
  capacity: nonNegativeInt(),
  /** Slots held by Confirmed orders and orders under review. */
  sold: nonNegativeInt(),
  revenue: v.object({
    /** Slot prices of the orders paid (Confirmed, under review, or cancelled after payment). */
    grossCents: nonNegativeInt(),
    discountCents: nonNegativeInt(),
    refundedCents: nonNegativeInt(),
    /** gross − discounts − refunds. */
    netCents: v.number(),
  }),
  ordersByState: v.record(v.string(), nonNegativeInt()),
  reviewQueue: nonNegativeInt(),
  /** Paid orders by the local day they were placed on (the event's first billboard's zone). */
  salesPerDay: v.array(
    v.object({ day: CalendarDateSchema, orders: nonNegativeInt(), cents: v.number() }),
  ),
  /**
   * Every local day of the event (the first billboard's zone): the sold plays of Confirmed orders
   * that start that day, those proven, and those missed by the make-good rule (decided without a
   * proof, or past the grace without one: src/domain/make-good.ts playOutcome).
   */
  playsPerDay: v.array(
    v.object({
      day: CalendarDateSchema,
      due: nonNegativeInt(),
      proven: nonNegativeInt(),
      missed: nonNegativeInt(),
    }),
  ),
  /**
   * The make-goods' refunds per day the refunded plays were due on and per currency: the orders
   * refunded for that day's plays, and what they gave back for them.
   */
  makeGoodRefundsPerDay: v.array(
    v.object({
      day: CalendarDateSchema,
      currency: CurrencySchema,
      orders: nonNegativeInt(),
      cents: nonNegativeInt(),
    }),
  ),
})
export type DashboardEvent = v.InferOutput<typeof DashboardEventSchema>

/**
 * Advertisers' money per currency: what the campaigns' daily charges took (settled charges only;
 * pending and failed ones took nothing), in all and per charged day (the billboard-local day the
 * plays ran) over the last 30 days.
 */
export const AdRevenueSchema = v.object({
  currency: CurrencySchema,
  chargedCents: nonNegativeInt(),
  charges: nonNegativeInt(),
  perDay: v.array(
    v.object({ day: CalendarDateSchema, cents: nonNegativeInt(), charges: nonNegativeInt() }),
  ),
})
export type AdRevenue = v.InferOutput<typeof AdRevenueSchema>

export const DashboardSchema = v.object({
  generatedAtEpochMs: EpochMsSchema,
  events: v.array(DashboardEventSchema),
  adRevenue: v.array(AdRevenueSchema),
})
export type Dashboard = v.InferOutput<typeof DashboardSchema>

const opsErrors = ['sign_in_required', 'role_forbidden', 'cross_origin'] as const

export const opsDashboard = {
  dashboard: endpoint({
    name: 'getOpsDashboard',
    method: 'GET',
    path: '/ops/dashboard',
    summary:
      "Per live event: slots sold of capacity, revenue, orders by state, review queue, sales per day, plays due, proven and missed and make-good refunds per day; advertisers' charged money",
    access: 'admin',
    response: DashboardSchema,
    errors: opsErrors,
  }),
} as const
