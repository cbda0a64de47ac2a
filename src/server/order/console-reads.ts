import type { OrderStateChange } from '../../contract/index.ts'
import { consoleContentOf } from '../content/reads.ts'
import {
  checkoutCardFacts,
  type DisputeFacts,
  orderDisputes,
  orderRefund,
  type RefundRow,
  refundedCents,
} from '../payment/reads.ts'
import type { Queryable } from '../platform/db/client.ts'
import { epochMs, sql } from '../platform/db/sql.ts'
import { ORDERS, type OrderColumns } from './columns.ts'
import { historyOf } from './reads.ts'

// The orders as the console reads them (the operators' module, ops/): each with its content and its
// moderation findings, card, refund and state history, in one statement made of the owners' read
// models (content/reads.ts, payment/reads.ts, auth/reads.ts); the queue, finding orders by code,
// e-mail or billboard (and day), and the orders under review with their slots (the review-expiry job).

export type { DisputeFacts, RefundRow } from '../payment/reads.ts'

/** The order's own columns (its column map's) and what the console reads beside them. */
export type ConsoleOrderRow = Omit<
  OrderColumns,
  'executionContentKey' | 'authenticationUntilEpochMs'
> & {
  personalDataForgotten: boolean
  createdAtEpochMs: number
  contentUrl: string | null
  contentType: 'photo' | 'video' | null
  contentFileName: string | null
  flagged: boolean
  flagReasons: string[]
  uploadFlagReasons: string[]
  texts: { buyerName?: string; recipientName?: string; multilineMessage?: string } | null
  provider: string | null
  cardBrand: string | null
  cardLast4: string | null
  /** Its refunds together (a cancel's, its make-good slots'). */
  refund: RefundRow | null
  /** What those of its refunds that went through gave back. */
  refundedCents: number
  disputes: DisputeFacts[]
  history: OrderStateChange[]
}

type Row = Omit<
  ConsoleOrderRow,
  | 'contentUrl'
  | 'contentType'
  | 'contentFileName'
  | 'flagged'
  | 'flagReasons'
  | 'uploadFlagReasons'
  | 'texts'
  | 'provider'
  | 'cardBrand'
  | 'cardLast4'
> & {
  content: {
    url: string
    type: 'photo' | 'video'
    fileName: string
    flagged: boolean
    flagReasons: string[]
    uploadFlagReasons: string[]
    texts: ConsoleOrderRow['texts']
  } | null
  card: { provider: string; cardBrand: string | null; cardLast4: string | null } | null
}

const CONSOLE_ORDER_FIELDS = [
  'guid',
  'eventSlug',
  'deviceId',
  'state',
  'errors',
  'confirmationDateEpochMs',
  'slotNumbers',
  'currency',
  'subtotalCents',
  'discountCents',
  'totalCents',
  'promoCode',
  'locale',
  'orderType',
  'email',
  'firstName',
  'lastName',
  'phoneNumber',
  'willReceiveMarketing',
  'paymentId',
] as const

const SELECT_CONSOLE_ORDER = sql`
  select ${ORDERS.select({ from: 'o', fields: CONSOLE_ORDER_FIELDS })},
    o.personal_data_erased_at is not null as "personalDataForgotten",
    round(${epochMs(sql`o.created_at`)}) as "createdAtEpochMs",
    ${consoleContentOf(sql`o.execution_content_key`)} as content,
    ${checkoutCardFacts(sql`o.checkout_secret_key`)} as card,
    ${orderRefund(sql`o.guid`)} as refund,
    ${refundedCents(sql`o.guid`)} as "refundedCents",
    ${orderDisputes(sql`o.guid`)} as disputes,
    ${historyOf(sql`o.guid`)} as history
  from orders o`

function normalise({ content, card, ...row }: Row): ConsoleOrderRow {
  return {
    ...row,
    createdAtEpochMs: Number(row.createdAtEpochMs),
    confirmationDateEpochMs:
      row.confirmationDateEpochMs === null ? null : Number(row.confirmationDateEpochMs),
    contentUrl: content?.url ?? null,
    contentType: content?.type ?? null,
    contentFileName: content?.fileName ?? null,
    flagged: content?.flagged ?? false,
    flagReasons: content?.flagReasons ?? [],
    uploadFlagReasons: content?.uploadFlagReasons ?? [],
    texts: content?.texts ?? null,
    provider: card?.provider ?? null,
    cardBrand: card?.cardBrand ?? null,
    cardLast4: card?.cardLast4 ?? null,
  }
}

export async function consoleOrder(db: Queryable, guid: string): Promise<ConsoleOrderRow | null> {
  const [row] = await db.query(sql<Row>`${SELECT_CONSOLE_ORDER} where o.guid = ${guid}`)
  return row ? normalise(row) : null
}

/** Review queue: the orders under review, oldest first. */
export async function ordersUnderReview(db: Queryable, limit = 200): Promise<ConsoleOrderRow[]> {
  const rows = await db.query(sql<Row>`${SELECT_CONSOLE_ORDER}
    where o.state = 'UnderReview' order by o.created_at, o.guid limit ${limit}::int`)
  return rows.map(normalise)
}

/** The slots (numbers from..untilExclusive) of one billboard of one event that begin on a searched day. */
export type DaySlots = { eventSlug: string; deviceId: string; from: number; untilExclusive: number }

const orderMatch = (text: string) => {
  const code = /^[0-9a-f-]{4,36}$/i.test(text) ? `${text.toLowerCase()}%` : null
  return text === ''
    ? sql`true`
    : sql`(o.guid like ${code}::text or lower(o.email) = lower(${text})
        or o.device_id = ${text})`
}

/** The billboards (event and device) of the orders a text finds: the day search's slot ranges are per billboard. */
export async function billboardsOfOrders(
  db: Queryable,
  text: string,
): Promise<{ eventSlug: string; deviceId: string }[]> {
  return db.query(sql<{ eventSlug: string; deviceId: string }>`
    select distinct ${ORDERS.select({ from: 'o', fields: ['eventSlug', 'deviceId'] })} from orders o
    where ${orderMatch(text)}`)
}

/**
 * Orders found by a confirmation code (the guid's first characters) or a whole guid, an e-mail
 * (case-insensitive), or a billboard's device id; newest first. An empty text finds the newest.
 * With `days`, only the orders with a slot in their billboard's range of the day, found by the
 * database among all orders (not among the newest few).
 */
export async function findOrders(
  db: Queryable,
  text: string,
  limit: number,
  days?: readonly DaySlots[],
  before?: string,
): Promise<ConsoleOrderRow[]> {
  // the next page: the orders after the one named, in the same order (an index on created_at, guid)
  const after = before
    ? sql`and (o.created_at, o.guid) < (select b.created_at, b.guid from orders b where b.guid = ${before})`
    : sql``
  const onDay = days
    ? sql`and exists (
        select 1 from unnest(${days.map((d) => d.eventSlug)}::text[], ${days.map((d) => d.deviceId)}::text[],
          ${days.map((d) => d.from)}::int[], ${days.map((d) => d.untilExclusive)}::int[])
          as d(event_slug, device_id, first_slot, end_slot)
        where d.event_slug = o.event_slug and d.device_id = o.device_id
          and exists (select 1 from unnest(o.slot_numbers) as n
            where n >= d.first_slot and n < d.end_slot))`
    : sql``
  const rows = await db.query(sql<Row>`${SELECT_CONSOLE_ORDER}
    where ${orderMatch(text)} ${onDay} ${after}
    order by o.created_at desc, o.guid desc limit ${limit}::int`)
  return rows.map(normalise)
}

/** The orders under review and their slots, for the job that cancels those whose time came. */
export async function underReviewSlots(
  db: Queryable,
): Promise<{ guid: string; eventSlug: string; deviceId: string; slotNumbers: number[] }[]> {
  return db.query(sql<{ guid: string; eventSlug: string; deviceId: string; slotNumbers: number[] }>`
    select ${ORDERS.select({ fields: ['guid', 'eventSlug', 'deviceId', 'slotNumbers'] })}
    from orders where state = 'UnderReview'`)
}
