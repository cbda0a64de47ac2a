import type { BillboardWeek } from '../../contract/billboards.ts'
import {
  billboardState,
  type DarkSpell,
  lastLocalDays,
  uptimePercent,
} from '../../domain/billboard-health.ts'
import { billboard } from '../catalogue/reads.ts'
import type { Queryable } from '../platform/db/client.ts'
import { outagesOfDevice } from './outages-repo.ts'
import { newestShoutProofs } from './proof-reads.ts'
import { heartbeatsOf } from './repo.ts'
import { SMIL_REFRESH_SECONDS } from './smil.ts'
import { soldPlaysBetween } from './sold-plays.ts'

// A billboard's own page in the console: its last 7 local days (uptime, sold plays due, proven and
// missed), its newest proofs and its outages. Uptime is read from the outages (from the last report
// before a silence until the next report) and, while it is offline with no outage opened (nothing
// sold ahead, so no alert), from its last report until now: the last report is all a billboard's
// reports leave (player_heartbeats keeps one row), so a day before its first report cannot be told.

const DAYS = 7
const PROOFS = 20

export async function billboardWeek(
  db: Queryable,
  deviceId: string,
  nowEpochMs: number,
  offlineMinutes: number,
): Promise<BillboardWeek | null> {
  const board = await billboard(db, deviceId)
  if (!board) return null
  const tz = board.timeZoneId
  const days = lastLocalDays(nowEpochMs, tz, DAYS)
  const since = days[0]?.fromEpochMs ?? nowEpochMs
  const [[beat], outages, proofs] = await Promise.all([
    heartbeatsOf(db, [deviceId]),
    outagesOfDevice(db, deviceId, since),
    newestShoutProofs(db, deviceId, PROOFS),
  ])
  const dark: DarkSpell[] = outages.map((o) => ({
    fromEpochMs: o.lastSeenEpochMs,
    toEpochMs: o.backAtEpochMs,
  }))
  if (beat) {
    const last = { seenAtEpochMs: beat.seenAtEpochMs, source: beat.source }
    const state = billboardState(last, nowEpochMs, {
      offlineMinutes,
      smilRefreshMs: SMIL_REFRESH_SECONDS * 1000,
    })
    if (state.kind === 'offline') dark.push({ fromEpochMs: beat.seenAtEpochMs, toEpochMs: null })
  }
  const plays = await Promise.all(
    days.map((d) => soldPlaysBetween(db, board, d.fromEpochMs, d.toEpochMs, nowEpochMs)),
  )
  return {
    deviceId,
    timeZoneId: tz,
    generatedAtEpochMs: nowEpochMs,
    days: days.map((d, i) => ({
      day: d.day,
      uptimePercent: beat ? uptimePercent(d, dark, nowEpochMs) : null,
      plays: plays[i] ?? { due: 0, proven: 0, missed: 0 },
    })),
    proofs: proofs.map(({ playId: _, ...proof }) => proof),
    outages: outages.map((o) => ({
      fromEpochMs: o.lastSeenEpochMs,
      toEpochMs: o.backAtEpochMs,
      durationMs: Math.max(0, (o.backAtEpochMs ?? nowEpochMs) - o.lastSeenEpochMs),
      missedPlays: o.missedPlays,
    })),
  }
}
