import type { ContentType } from '../../contract/index.ts'
import type { Queryable } from '../platform/db/client.ts'
import { type Sql, sql } from '../platform/db/sql.ts'

// What the content module lets other modules read of generated_content: the content an order
// names. Placing and processing an order read it with the order's own rows in one round trip (the
// hot path of the shop), so it is offered as a scalar subquery the order's statement embeds: the SQL
// on generated_content stays here.

/** The content an order names, as far as the order needs it. */
export type OrderContent = {
  key: string
  url: string
  type: ContentType
  deviceId: string
  eventSlug: string
  flagged: boolean
  /** The stored file's name (storage.ts): a clip's still is named after it. */
  fileName: string
}

const CONTENT_JSON = sql`json_build_object('key', g.key, 'url', g.url, 'type', g.type,
  'deviceId', g.device_id, 'eventSlug', g.event_slug, 'flagged', g.flagged,
  'fileName', g.file_name)`

/** The content under a key (an OrderContent as JSON, or null), as a scalar subquery. */
export function orderContentOf(key: Sql): Sql {
  return sql`(select ${CONTENT_JSON} from generated_content g where g.key = ${key})`
}

/**
 * The content under this key, share-locked for the statement placing an order that names it (a
 * SELECT for a CTE): empty when it is gone. The unordered-content sweep locks what it deletes and
 * skips what is locked (repo.ts deleteUnorderedContent), so an order being placed keeps its content,
 * and one placed while the sweep deletes it finds none and is refused.
 */
export function contentHeldForOrder(key: Sql): Sql {
  return sql`select g.key from generated_content g where g.key = ${key} for share`
}

export async function orderContent(db: Queryable, key: string): Promise<OrderContent | null> {
  const [row] = await db.query(sql<{ content: OrderContent | null }>`
    select ${orderContentOf(sql`${key}`)} as content`)
  return row?.content ?? null
}
