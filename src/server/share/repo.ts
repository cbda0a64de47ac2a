import type { Queryable } from '../platform/db/client.ts'
import { sql } from '../platform/db/sql.ts'
import { SHARES } from './columns.ts'

// All SQL of the keepsake pages (migration 0023): the shares. Only this module touches the table.

export type ShareRow = {
  shareId: string
  orderGuid: string
  eventSlug: string
  locale: string
  imageName: string | null
  createdAtEpochMs: number
}

const ROW = SHARES.select()

/**
 * The order's share: the one made now, or the one it already had (one live share an order), in the
 * language asked for now.
 */
export async function insertShare(
  db: Queryable,
  s: { shareId: string; orderGuid: string; eventSlug: string; locale: string; nowMs: number },
): Promise<ShareRow> {
  const rows = await db.query(sql<ShareRow>`
    insert into shares (share_id, order_guid, event_slug, locale, created_at_epoch_ms)
    values (${s.shareId}, ${s.orderGuid}, ${s.eventSlug}, ${s.locale}, ${s.nowMs})
    on conflict (order_guid) do update set locale = excluded.locale
    returning ${ROW}`)
  const [row] = rows
  if (!row) throw new Error('shares: the share was neither stored nor found')
  return row
}

export async function shareOfOrder(db: Queryable, orderGuid: string): Promise<ShareRow | null> {
  const [row] = await db.query(sql<ShareRow>`
    select ${ROW} from shares where order_guid = ${orderGuid}`)
  return row ?? null
}

export async function shareById(db: Queryable, shareId: string): Promise<ShareRow | null> {
  const [row] = await db.query(sql<ShareRow>`select ${ROW} from shares where share_id = ${shareId}`)
  return row ?? null
}

/** Records the composite once made; false when the share went meanwhile (the caller removes it). */
export async function setImageName(
  db: Queryable,
  shareId: string,
  imageName: string,
): Promise<boolean> {
  const rows = await db.query(sql<{ shareId: string }>`
    update shares set image_name = ${imageName}
    where share_id = ${shareId} and image_name is null
    returning ${SHARES.select({ fields: ['shareId'] })}`)
  return rows.length > 0
}

/** Deletes the order's share; answers its stored picture's name (to remove) when it had one. */
export async function deleteShareOfOrder(
  db: Queryable,
  orderGuid: string,
): Promise<{ shareId: string; imageName: string | null } | null> {
  const [row] = await db.query(sql<{ shareId: string; imageName: string | null }>`
    delete from shares where order_guid = ${orderGuid}
    returning ${SHARES.select({ fields: ['shareId', 'imageName'] })}`)
  return row ?? null
}
