import type { Queryable } from '../platform/db/client.ts'
import { sql } from '../platform/db/sql.ts'
import { OUTAGES } from './columns.ts'

// billboard_outages (migration 0030): one row per time a billboard with sold plays ahead stopped
// reporting, open until it reports again. Its mails are marked made once queued (each keyed, so a
// crash between the two queues the same mail again, which the outbox takes once).

export type Outage = {
  deviceId: string
  lastSeenEpochMs: number
  noticedAtEpochMs: number
  backAtEpochMs: number | null
  missedPlays: number | null
  offlineMailed: boolean
  onlineMailed: boolean
}

const OUTAGE = OUTAGES.select()

/** The outages still open, and those closed whose mails are not all made. */
export function outagesToFollow(db: Queryable): Promise<Outage[]> {
  return db.query(sql<Outage>`select ${OUTAGE} from billboard_outages
    where back_at_epoch_ms is null or not online_mailed or not offline_mailed
    order by device_id, last_seen_epoch_ms`)
}

/** Opens an outage; false when the billboard has one open already (another pass opened it). */
export async function openOutage(
  db: Queryable,
  deviceId: string,
  lastSeenEpochMs: number,
  nowEpochMs: number,
): Promise<boolean> {
  const rows = await db.query(sql`
    insert into billboard_outages (device_id, last_seen_epoch_ms, noticed_at_epoch_ms)
    values (${deviceId}, ${lastSeenEpochMs}, ${nowEpochMs})
    on conflict do nothing
    returning device_id`)
  return rows.length === 1
}

/** Closes an open outage once the billboard reported again; false when already closed. */
export async function closeOutage(
  db: Queryable,
  outage: Pick<Outage, 'deviceId' | 'lastSeenEpochMs'>,
  backAtEpochMs: number,
  missedPlays: number,
): Promise<boolean> {
  const rows = await db.query(sql`
    update billboard_outages set back_at_epoch_ms = ${backAtEpochMs}, missed_plays = ${missedPlays}
    where device_id = ${outage.deviceId} and last_seen_epoch_ms = ${outage.lastSeenEpochMs}
      and back_at_epoch_ms is null
    returning device_id`)
  return rows.length === 1
}

export async function markOutageMailed(
  db: Queryable,
  outage: Pick<Outage, 'deviceId' | 'lastSeenEpochMs'>,
  which: 'offline' | 'online',
): Promise<void> {
  await db.query(sql`
    update billboard_outages set
      offline_mailed = offline_mailed or ${which === 'offline'},
      online_mailed = online_mailed or ${which === 'online'}
    where device_id = ${outage.deviceId} and last_seen_epoch_ms = ${outage.lastSeenEpochMs}`)
}

/** A billboard's outages still open or ended since `sinceEpochMs`, newest first. */
export function outagesOfDevice(
  db: Queryable,
  deviceId: string,
  sinceEpochMs: number,
): Promise<Outage[]> {
  return db.query(sql<Outage>`select ${OUTAGE} from billboard_outages
    where device_id = ${deviceId}
      and (back_at_epoch_ms is null or back_at_epoch_ms > ${sinceEpochMs}::bigint)
    order by last_seen_epoch_ms desc`)
}
