import type { Locale } from '../../domain/locale.ts'
import type { MailService } from '../mail/service.ts'
import type { Database } from '../platform/db/client.ts'
import { sayAll } from '../platform/i18n.ts'
import type { Logger } from '../platform/log.ts'
import { OUTAGE_MESSAGES } from './outage-messages.ts'
import {
  closeOutage,
  markOutageMailed,
  type Outage,
  openOutage,
  outagesToFollow,
} from './outages-repo.ts'
import { type BillboardReport, billboardReports } from './repo.ts'
import { soldPlaysBetween } from './sold-plays.ts'

// Offline and back-online alerts: a billboard that has sold plays in the next hour and has not
// reported for BILLBOARD_OFFLINE_MINUTES is an outage; the admins get one mail, in each one's
// language, and one more once it reports again, with how long it was dark and how many sold plays it
// missed meanwhile. The `billboard-outages` job (jobs.ts) runs it on one instance at a time; the
// outage is opened and closed by conditional statements (one open outage per billboard) and each
// mail is keyed by the outage and the admin, so neither two instances nor a crash between the outage
// and its mails send one twice.

const HOUR_MS = 3_600_000

export type OutageAlerts = ReturnType<typeof createOutageAlerts>

export function createOutageAlerts(deps: {
  database: Database
  log: Logger
  now: () => number
  /** BILLBOARD_OFFLINE_MINUTES */
  offlineMinutes: number
  mail: Pick<MailService, 'queueNotice' | 'origin'>
  admins: () => Promise<{ email: string; locale: Locale }[]>
}) {
  const { database: db, log } = deps

  async function mailAdmins(outage: Outage, report: BillboardReport, which: 'offline' | 'online') {
    const place = [report.location, report.city].filter(Boolean).join(', ')
    for (const admin of await deps.admins()) {
      const t = sayAll(admin.locale, OUTAGE_MESSAGES)
      // "1 h 15 min": the message writes the hours when there are any
      const duration = (minutes: number) =>
        t.duration({ hours: Math.floor(minutes / 60), minutes: minutes % 60 })
      const time = new Intl.DateTimeFormat(admin.locale, {
        dateStyle: 'medium',
        timeStyle: 'short',
        timeZone: report.timeZoneId,
      })
      const rows =
        which === 'offline'
          ? [{ label: t.lastReport(), value: time.format(outage.lastSeenEpochMs) }]
          : [
              {
                label: t.dark(),
                value: duration(
                  Math.round(((outage.backAtEpochMs ?? 0) - outage.lastSeenEpochMs) / 60_000),
                ),
              },
              { label: t.missed(), value: String(outage.missedPlays ?? 0) },
            ]
      await deps.mail.queueNotice({
        key: `billboard-${which}-${outage.deviceId}-${outage.lastSeenEpochMs}-${admin.email.toLowerCase()}`,
        kind: which === 'offline' ? 'billboard_offline' : 'billboard_online',
        to: admin.email,
        sensitive: false,
        view: {
          locale: admin.locale,
          subject: t[which].subject({ place }),
          heading: t[which].heading(),
          greeting: t.greeting(),
          paragraphs: [t[which].intro({ place })],
          rows: [{ label: t.billboard(), value: `${place} (${report.deviceId})` }, ...rows],
          button: { label: t.button(), url: `${deps.mail.origin()}/ops/billboards` },
          footer: t.footer(),
        },
      })
    }
    await markOutageMailed(db, outage, which)
  }

  /** One pass: opens the outages now due, closes those whose billboard is back, mails each once. */
  async function check(): Promise<number> {
    const now = deps.now()
    const reports = await billboardReports(db)
    const byDevice = new Map(reports.map((r) => [r.deviceId, r]))
    const followed = await outagesToFollow(db)
    const open = new Set(followed.filter((o) => o.backAtEpochMs === null).map((o) => o.deviceId))
    let changed = 0
    for (const report of reports) {
      if (report.seenAtEpochMs === null || open.has(report.deviceId)) continue
      if (now - report.seenAtEpochMs < deps.offlineMinutes * 60_000) continue
      const ahead = await soldPlaysBetween(db, report, now, now + HOUR_MS, now)
      if (ahead.due === 0) continue
      if (await openOutage(db, report.deviceId, report.seenAtEpochMs, now)) {
        log.warn('billboard offline', { deviceId: report.deviceId, playsAhead: ahead.due })
        followed.push({
          deviceId: report.deviceId,
          lastSeenEpochMs: report.seenAtEpochMs,
          noticedAtEpochMs: now,
          backAtEpochMs: null,
          missedPlays: null,
          offlineMailed: false,
          onlineMailed: false,
        })
        changed++
      }
    }
    for (const outage of followed) {
      const report = byDevice.get(outage.deviceId)
      if (!report) continue
      const seen = report.seenAtEpochMs ?? outage.lastSeenEpochMs
      if (outage.backAtEpochMs === null && seen > outage.lastSeenEpochMs) {
        const dark = await soldPlaysBetween(db, report, outage.lastSeenEpochMs, seen, now)
        if (await closeOutage(db, outage, seen, dark.missed)) {
          log.info('billboard back online', { deviceId: outage.deviceId, missed: dark.missed })
          outage.backAtEpochMs = seen
          outage.missedPlays = dark.missed
          changed++
        }
      }
      if (!outage.offlineMailed) await mailAdmins(outage, report, 'offline')
      if (outage.backAtEpochMs !== null && !outage.onlineMailed) {
        await mailAdmins(outage, report, 'online')
      }
    }
    return changed
  }

  return { check }
}
