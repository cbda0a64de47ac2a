import { columnMap } from '../platform/db/columns.ts'
import type { Outage } from './outages-repo.ts'
import type { StoredHeartbeat } from './repo.ts'

// The player module's tables (migrations 0004, 0009, 0011, 0030, 0040, 0055) as its rows name
// their fields: the select and `returning` lists, and the heartbeat's insert, are written from
// these declarations instead of each query naming its aliases again.

/** A proof of play as stored (plays). */
export type PlayColumns = {
  playId: string
  deviceId: string
  orderGuid: string
  slotNumber: number
  playIndex: number
  startedAtEpochMs: number
  endedAtEpochMs: number
  /** when the server took it, in whole milliseconds */
  receivedAtEpochMs: number
}

export const PLAYS = columnMap<PlayColumns>('plays', {
  playId: 'play_id',
  deviceId: 'device_id',
  orderGuid: 'order_guid',
  slotNumber: 'slot_number',
  playIndex: 'play_index',
  startedAtEpochMs: { column: 'started_at_epoch_ms', cast: 'bigint' },
  endedAtEpochMs: { column: 'ended_at_epoch_ms', cast: 'bigint' },
  receivedAtEpochMs: { column: 'received_at', epochMs: true, floor: true },
})

/** A billboard's player link (player_tokens), by its token's hash. */
export type PlayerTokenColumns = {
  tokenHash: string
  deviceId: string
  /** when the link was made, in whole milliseconds */
  createdAtEpochMs: number
}

export const PLAYER_TOKENS = columnMap<PlayerTokenColumns>('player_tokens', {
  tokenHash: 'token_hash',
  deviceId: 'device_id',
  createdAtEpochMs: { column: 'created_at', epochMs: true, floor: true },
})

/** A billboard's published SMIL document (smil_feeds). */
export type SmilFeedColumns = {
  deviceId: string
  etag: string
  body: string
  windowKey: string
  modifiedAtEpochMs: number
}

export const SMIL_FEEDS = columnMap<SmilFeedColumns>('smil_feeds', {
  deviceId: 'device_id',
  etag: 'etag',
  body: 'body',
  windowKey: 'window_key',
  modifiedAtEpochMs: { column: 'modified_at_epoch_ms', cast: 'bigint' },
})

export const HEARTBEATS = columnMap<StoredHeartbeat>('player_heartbeats', {
  deviceId: 'device_id',
  source: 'source',
  seenAtEpochMs: { column: 'seen_at_epoch_ms', cast: 'bigint' },
  clockOffsetMs: { column: 'clock_offset_ms', cast: 'bigint' },
  beat: { column: 'beat', json: true },
  playerKind: 'player_kind',
  playLogAtEpochMs: { column: 'play_log_at_epoch_ms', cast: 'bigint' },
})

export const OUTAGES = columnMap<Outage>('billboard_outages', {
  deviceId: 'device_id',
  lastSeenEpochMs: 'last_seen_epoch_ms',
  noticedAtEpochMs: 'noticed_at_epoch_ms',
  backAtEpochMs: 'back_at_epoch_ms',
  missedPlays: 'missed_plays',
  offlineMailed: 'offline_mailed',
  onlineMailed: 'online_mailed',
})
