import type { ContentType } from '../../contract/index.ts'
import type { Queryable } from '../platform/db/client.ts'
import { type Sql, sql } from '../platform/db/sql.ts'

// What the content module lets other modules read of its tables: the content an order names, as the
// order, the console and the billboards need it. They read it with their own rows in one round trip
// (placing an order is the hot path of the shop), so each is offered as a scalar subquery the reader's
// statement embeds: the SQL on generated_content and content_uploads stays here.

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

/**
 * What the console shows of an order's content: {url, type, fileName, flagged, flagReasons,
 * uploadFlagReasons (the upload's own verdict), texts (what the shopper typed)} as JSON, or null.
 */
export function consoleContentOf(key: Sql): Sql {
  return sql`(select json_build_object('url', g.url, 'type', g.type, 'fileName', g.file_name,
    'flagged', g.flagged, 'flagReasons', coalesce(g.flag_reasons, '[]'::jsonb),
    'uploadFlagReasons', coalesce(u.flag_reasons, '[]'::jsonb), 'texts', g.request)
    from generated_content g left join content_uploads u on u.id = g.upload_id
    where g.key = ${key})`
}

/** The content's url and type ({url, type} as JSON), or null. */
export function contentLinkOf(key: Sql): Sql {
  return sql`(select json_build_object('url', g.url, 'type', g.type)
    from generated_content g where g.key = ${key})`
}

/** What a billboard plays: {url, type, widthPx, heightPx, durationSeconds} as JSON, or null. */
export function playableContentOf(key: Sql): Sql {
  return sql`(select json_build_object('url', g.url, 'type', g.type, 'widthPx', g.width_px,
    'heightPx', g.height_px, 'durationSeconds', g.duration_seconds)
    from generated_content g where g.key = ${key})`
}

/** Content jobs by status, in the shared database (GET /metrics). */
export async function countJobsByStatus(
  db: Queryable,
): Promise<{ status: string; count: number }[]> {
  return db.query(sql<{ status: string; count: number }>`
    select status, count(*)::int as count from content_jobs group by status`)
}
