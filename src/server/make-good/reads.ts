import type { OrderMakeGood } from '../../contract/index.ts'
import { makeGoodOfSlots, type SlotMakeGood } from '../../domain/make-good.ts'
import type { RefundRow } from '../payment/reads.ts'
import { keyedRefundOpen, keyedRefunds } from '../payment/reads.ts'
import type { Queryable } from '../platform/db/client.ts'
import { type Sql, sql } from '../platform/db/sql.ts'
import { MAKE_GOOD_SLOTS, type MakeGoodSlotColumns } from './columns.ts'

// What the make-good module lets others read of make_good_slots: an order's make-good so far with
// its refunds (the order summary, the confirmation page), the make-goods owed a mail (the mail
// planner), and an event's decided slots (the console's dashboard).

export type MakeGoodFacts = {
  /** The plays of the slots decided so far, and how many of them were proven. */
  playsDue: number
  playsProven: number
  slots: SlotMakeGood[]
  refundCents: number
  currency: string
  /** When the latest of its slots was decided. */
  decidedAtEpochMs: number
  /** The refunds its slots owe together, as the payment module keeps them (null: none owed). */
  refund: Pick<RefundRow, 'status' | 'amountCents'> | null
}

const SLOT_FIELDS = [
  'slotNumber',
  'playsDue',
  'playsProven',
  'missedPlayIndexes',
  'refundCents',
  'currency',
  'decidedAtEpochMs',
] as const

type SlotRow = Pick<MakeGoodSlotColumns, (typeof SLOT_FIELDS)[number]> & {
  refund: RefundRow | null
}

/** An order's make-good over the slots decided so far, or null while none is. */
export async function makeGoodOfOrder(db: Queryable, guid: string): Promise<MakeGoodFacts | null> {
  const rows = await db.query(sql<SlotRow>`
    select ${MAKE_GOOD_SLOTS.select({ from: 'g', fields: SLOT_FIELDS })},
      ${keyedRefunds(sql`(select array_agg(distinct k.refund_key) from make_good_slots k
        where k.order_guid = g.order_guid and k.refund_key is not null)`)} as refund
    from make_good_slots g where g.order_guid = ${guid} order by g.slot_number`)
  const [first] = rows
  if (!first) return null
  const made = makeGoodOfSlots(rows.map((r) => ({ ...r, refundCents: Number(r.refundCents) })))
  return {
    ...made,
    currency: first.currency,
    decidedAtEpochMs: Math.max(...rows.map((r) => Number(r.decidedAtEpochMs))),
    refund: first.refund
      ? { status: first.refund.status, amountCents: first.refund.amountCents }
      : null,
  }
}

/** A make-good owed its shopper's mail: plays were missed and the refunds are done. */
export type MakeGoodMailCandidate = {
  guid: string
  eventSlug: string
  playsDue: number
  playsProven: number
  slots: SlotMakeGood[]
  refundCents: number
}

/**
 * The orders whose every slot is decided, the last of them within two days, that missed plays, whose
 * refunds are done (or owed nothing), and that `mailed` (the mail module's condition on `o.guid`)
 * does not hold for. One mail per order, once it is whole: a slot is never mailed twice, and the
 * mail says what played of all the order's plays.
 */
export function makeGoodMailCandidates(
  db: Queryable,
  mailed: (kind: string) => Sql,
  limit: number,
): Promise<MakeGoodMailCandidate[]> {
  return db.query(sql<MakeGoodMailCandidate>`
    select o.guid, o."eventSlug", o."playsDue", o."playsProven", o.slots, o."refundCents"
    from (select g.order_guid as guid, min(g.event_slug) as "eventSlug",
        sum(g.plays_due)::int as "playsDue", sum(g.plays_proven)::int as "playsProven",
        coalesce(jsonb_agg(jsonb_build_object('slotNumber', g.slot_number,
            'missedPlayIndexes', g.missed_play_indexes, 'refundCents', g.refund_cents)
          order by g.slot_number) filter (where jsonb_array_length(g.missed_play_indexes) > 0),
          '[]'::jsonb) as slots,
        sum(g.refund_cents)::float8 as "refundCents",
        coalesce(array_agg(g.refund_key) filter (where g.refund_key is not null), '{}') as keys,
        max(g.decided_at) as decided_at
      from make_good_slots g
      group by g.order_guid
      having count(*) = min(g.order_slots) and max(g.decided_at) > now() - interval '2 days'
        and bool_or(jsonb_array_length(g.missed_play_indexes) > 0)) o
    where not ${mailed('make_good')} and not ${keyedRefundOpen(sql`o.keys`)}
    order by o.decided_at
    limit ${limit}`)
}

/** An event's decided make-goods, as the dashboard counts them: per order, its decided slots. */
export type DecidedMakeGood = { orderGuid: string; slots: SlotMakeGood[]; currency: string }

/** The decided slots of an event's orders (the console's dashboard). */
export function makeGoodsOfEvent(db: Queryable, eventSlug: string): Promise<DecidedMakeGood[]> {
  return db.query(sql<DecidedMakeGood>`
    select ${MAKE_GOOD_SLOTS.select({ from: 'g', fields: ['orderGuid'] })}, min(g.currency) as currency,
      jsonb_agg(jsonb_build_object('slotNumber', g.slot_number,
        'missedPlayIndexes', g.missed_play_indexes, 'refundCents', g.refund_cents)
        order by g.slot_number) as slots
    from make_good_slots g where g.event_slug = ${eventSlug}
    group by g.order_guid`)
}

/** An order's make-good as its summary shows it (api-v1 OrderSummary.makeGood), or null. */
export async function orderMakeGood(db: Queryable, guid: string): Promise<OrderMakeGood | null> {
  const facts = await makeGoodOfOrder(db, guid)
  if (!facts) return null
  return {
    playsDue: facts.playsDue,
    playsProven: facts.playsProven,
    missed: facts.slots.map((s) => ({
      slotNumber: s.slotNumber,
      missedPlays: s.missedPlayIndexes.length,
      refundCents: s.refundCents,
    })),
    refundCents: facts.refundCents,
    refundStatus: facts.refund?.status ?? 'none',
    decidedAtEpochMs: Math.round(facts.decidedAtEpochMs),
  }
}
