import type { WindowProblem } from '../../domain/schedule.ts'

// What the player service answers instead of a value: a typed error with a stable code, each call
// its own few. The routes (routes.ts) give each its status and text.

export type DeviceNotFound = { code: 'device_not_found' }

/** A schedule's window refused (domain/schedule.ts), or no such billboard. */
export type ScheduleError =
  | DeviceNotFound
  | { code: 'schedule_window_invalid'; problem: WindowProblem }

/** As many house cards being drawn and waiting as allowed (routes.ts: 429), or no such billboard. */
export type HouseCardError = DeviceNotFound | { code: 'house_card_busy' }

export type PlayerError =
  | { code: 'player_token_missing' }
  /** Unknown, revoked, or another billboard's token. */
  | { code: 'player_token_invalid' }
  | ScheduleError
  | HouseCardError
