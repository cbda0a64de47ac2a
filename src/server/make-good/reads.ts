import type { OrderMakeGood } from '../../contract/index.ts'
import type { SlotMakeGood } from '../../domain/make-good.ts'
import type { RefundRow } from '../payment/reads.ts'
import { orderRefund, refundOpen } from '../payment/reads.ts'
import type { Queryable } from '../platform/db/client.ts'
import { type Sql, sql } from '../platform/db/sql.ts'

// What the make-good module lets others read of make_goods: an order's make-good with its refund
// (the order summary, the confirmation page), the make-goods owed a mail (the mail planner), and
// an event's decided make-goods (the console's dashboard).

export type MakeGoodFacts = {
  playsDue: number
  playsProven: number
  slots: SlotMakeGood[]
  refundCents: number
  currency: string
  decidedAtEpochMs: number
  /** The refund the make-good owes, as the payment module keeps it (null: nothing owed). */
  refund: Pick<RefundRow, 'status' | 'amountCents'> | null
}

/** An order's make-good, or null while it is not decided. */
export async function makeGoodOfOrder(db: Queryable, guid: string): Promise<MakeGoodFacts | null> {
  const [row] = await db.query(sql<MakeGoodFacts & { refund: RefundRow | null }>`
    select g.plays_due as "playsDue", g.plays_proven as "playsProven", g.slots,
      g.refund_cents::float8 as "refundCents", g.currency,
      (extract(epoch from g.decided_at) * 1000)::float8 as "decidedAtEpochMs",
      case when g.refund_cents > 0 then ${orderRefund(sql`g.order_guid`)} end as refund
    from make_goods g where g.order_guid = ${guid}`)
  if (!row) return null
  return {
    ...row,
    refundCents: Number(row.refundCents),
    decidedAtEpochMs: Number(row.decidedAtEpochMs),
    refund: row.refund ? { status: row.refund.status, amountCents: row.refund.amountCents } : null,
  }
}

/** A make-good owed its shopper's mail: plays were missed and the refund is done. */
export type MakeGoodMailCandidate = {
  guid: string
  eventSlug: string
  playsDue: number
  playsProven: number
  slots: SlotMakeGood[]
  refundCents: number
}

/**
 * The make-goods of the last two days that missed plays, whose refund is done (or owed nothing), and
 * that `mailed` (the mail module's condition on `o.guid`) does not hold for.
 */
export function makeGoodMailCandidates(
  db: Queryable,
  mailed: (kind: string) => Sql,
  limit: number,
): Promise<MakeGoodMailCandidate[]> {
  return db.query(sql<MakeGoodMailCandidate>`
    select o.guid, o.event_slug as "eventSlug", o.plays_due as "playsDue",
      o.plays_proven as "playsProven", o.slots, o.refund_cents::float8 as "refundCents"
    from (select g.*, g.order_guid as guid from make_goods g
      where g.decided_at > now() - interval '2 days' and jsonb_array_length(g.slots) > 0) o
    where not ${mailed('make_good')} and not ${refundOpen(sql`o.guid`)}
    order by o.decided_at
    limit ${limit}`)
}

/** An event's decided make-good, as the dashboard counts it: which plays it missed, what it owes. */
export type DecidedMakeGood = { orderGuid: string; slots: SlotMakeGood[]; currency: string }

/** The decided make-goods of an event's orders (the console's dashboard). */
export function makeGoodsOfEvent(db: Queryable, eventSlug: string): Promise<DecidedMakeGood[]> {
  return db.query(sql<DecidedMakeGood>`
    select g.order_guid as "orderGuid", g.slots, g.currency
    from make_goods g where g.event_slug = ${eventSlug}`)
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
