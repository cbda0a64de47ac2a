import type { Queryable } from '../platform/db/client.ts'
import { sql } from '../platform/db/sql.ts'

// The promos table (written by the catalogue import) and promo_redemptions (written by placing an
// order, order/repo.ts): reads only.

export type PromoRow = {
  promoCode: string
  eventSlug: string
  centsOffTotal: number | null
  percentOffTotal: number | null
  oncePerCustomer: boolean
}

// Codes are matched without regard to case: a shopper types 'love10' for LOVE10.
export async function findPromo(db: Queryable, code: string): Promise<PromoRow | null> {
  const [row] = await db.query(sql<PromoRow>`
    select promo_code as "promoCode", event_slug as "eventSlug", cents_off_total as "centsOffTotal",
      percent_off_total as "percentOffTotal", once_per_customer as "oncePerCustomer"
    from promos where upper(promo_code) = upper(${code})`)
  return row ?? null
}

/** Whether this e-mail (already normalised) has an order with this code. */
export async function hasRedeemed(db: Queryable, promoCode: string, email: string) {
  const rows = await db.query(sql`
    select 1 from promo_redemptions where promo_code = ${promoCode} and email = ${email}`)
  return rows.length > 0
}
