import type { Queryable } from '../platform/db/client.ts'
import { sql } from '../platform/db/sql.ts'

// The SQL of the shoppers' "Forget my data" links (erasure.ts; table order_erasure_links, owned here).

const at = (epochMs: number) => sql`to_timestamp(${epochMs}::float8 / 1000)`

export async function insertErasureLink(
  db: Queryable,
  link: { tokenHash: string; orderGuid: string; expiresAtEpochMs: number },
): Promise<void> {
  await db.query(sql`
    insert into order_erasure_links (token_hash, order_guid, expires_at)
    values (${link.tokenHash}, ${link.orderGuid}, ${at(link.expiresAtEpochMs)})`)
}

export type ErasureLink = {
  orderGuid: string
  eventSlug: string
  used: boolean
  forgotten: boolean
}

/** The link of this token's hash while it lasts, with its order (null: unknown or expired). */
export async function erasureLink(
  db: Queryable,
  tokenHash: string,
  nowMs: number,
): Promise<ErasureLink | null> {
  const [row] = await db.query(sql<ErasureLink>`
    select l.order_guid as "orderGuid", o.event_slug as "eventSlug", l.used_at is not null as used,
      o.personal_data_erased_at is not null as forgotten
    from order_erasure_links l join orders o on o.guid = l.order_guid
    where l.token_hash = ${tokenHash} and l.expires_at > ${at(nowMs)}`)
  return row ?? null
}

export async function markErasureLinkUsed(
  db: Queryable,
  tokenHash: string,
  nowMs: number,
): Promise<void> {
  await db.query(sql`
    update order_erasure_links set used_at = ${at(nowMs)}
    where token_hash = ${tokenHash} and used_at is null`)
}

export async function deleteExpiredErasureLinks(db: Queryable, nowMs: number): Promise<void> {
  await db.query(sql`delete from order_erasure_links where expires_at <= ${at(nowMs)}`)
}
