import type { BillboardHealth, BillboardsHealth } from '../../contract/billboards.ts'
import {
  billboardState,
  DEFAULT_OFFLINE_MINUTES,
  localDayBounds,
} from '../../domain/billboard-health.ts'
import type { Queryable } from '../platform/db/client.ts'
import { billboardReports } from './repo.ts'
import { SMIL_REFRESH_SECONDS } from './smil.ts'
import { soldPlaysBetween } from './sold-plays.ts'
import { billboardWeek } from './week.ts'

// The console's Billboards page: each billboard's state read from its last report
// (src/domain/billboard-health.ts), with what its web player last said of itself.

const HOUR_MS = 3_600_000

export async function billboardsHealth(
  db: Queryable,
  nowEpochMs: number,
  offlineMinutes: number,
): Promise<BillboardsHealth> {
  const reports = await billboardReports(db)
  const today = await Promise.all(
    reports.map((report) => {
      const day = localDayBounds(nowEpochMs, report.timeZoneId)
      return soldPlaysBetween(db, report, day.fromEpochMs, day.toEpochMs, nowEpochMs)
    }),
  )
  // what an outage would cost: the sold plays of the hour ahead (trouble first on the console)
  const nextHour = await Promise.all(
    reports.map((report) =>
      soldPlaysBetween(db, report, nowEpochMs, nowEpochMs + HOUR_MS, nowEpochMs),
    ),
  )
  const billboards = reports.map((report, i): BillboardHealth => {
    const last =
      report.source === null || report.seenAtEpochMs === null
        ? null
        : { seenAtEpochMs: report.seenAtEpochMs, source: report.source }
    const state = billboardState(last, nowEpochMs, {
      offlineMinutes,
      smilRefreshMs: SMIL_REFRESH_SECONDS * 1000,
    })
    const beat = report.beat
    return {
      deviceId: report.deviceId,
      location: report.location,
      city: report.city,
      timeZoneId: report.timeZoneId,
      coordinates: report.coordinates,
      state: state.kind,
      lastSeenEpochMs: last?.seenAtEpochMs ?? null,
      source: last?.source ?? null,
      clockOffsetMs: report.clockOffsetMs,
      today: today[i] ?? { due: 0, proven: 0, missed: 0 },
      nextHourDue: nextHour[i]?.due ?? 0,
      player: report.playerKind,
      lastPlayLogEpochMs: report.playLogAtEpochMs,
      beat: beat && {
        showing: beat.showing,
        files: beat.files,
        pendingPlays: beat.pendingPlays,
        version: beat.version,
        screen: beat.screen,
      },
    }
  })
  return { generatedAtEpochMs: nowEpochMs, offlineMinutes, billboards }
}

/** What the console reads of billboards: the fleet's states, and a billboard's last 7 days. */
export function billboardConsole(deps: {
  database: Queryable
  now: () => number
  offlineMinutes?: number
}) {
  const offline = deps.offlineMinutes ?? DEFAULT_OFFLINE_MINUTES
  return {
    health: () => billboardsHealth(deps.database, deps.now(), offline),
    week: (deviceId: string) => billboardWeek(deps.database, deviceId, deps.now(), offline),
  }
}
