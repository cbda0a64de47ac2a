import type { Queryable } from '../platform/db/client.ts'
import { sql } from '../platform/db/sql.ts'
import { ORDERS } from './columns.ts'

// The SQL of the shoppers' "Forget my data" links (erasure.ts): the order a verified link names, and
// the key that signs the links when ERASURE_LINK_KEY is unset (table order_erasure_keys, owned here).

export type ErasureOrder = { eventSlug: string; forgotten: boolean }

/** The order a link names, and whether its personal data is forgotten (null: no such order). */
export async function erasureOrder(db: Queryable, guid: string): Promise<ErasureOrder | null> {
  const [row] = await db.query(sql<ErasureOrder>`
    select ${ORDERS.select({ fields: ['eventSlug'] })}, personal_data_erased_at is not null as forgotten
    from orders where guid = ${guid}`)
  return row ?? null
}

/** The key under this id: made with `secret` by whichever instance comes first, then kept. */
export async function ensureErasureKey(
  db: Queryable,
  kid: string,
  secret: string,
): Promise<string> {
  await db.query(sql`
    insert into order_erasure_keys (kid, secret) values (${kid}, ${secret})
    on conflict (kid) do nothing`)
  const [row] = await db.query(sql<{ secret: string }>`
    select secret from order_erasure_keys where kid = ${kid}`)
  if (!row) throw new Error('the erasure links’ key was not stored')
  return row.secret
}
