import { Temporal } from 'temporal-polyfill'
import { eventWindowEpochMs } from '../../domain/event.ts'
import {
  localClock,
  PROOF_COLUMNS,
  type ProvenPlay,
  proofCells,
} from '../../domain/proof-export.ts'
import { adProofPage } from '../advertisers/on-air/proof-reads.ts'
import { billboards, devicesOfEvent } from '../catalogue/reads.ts'
import type { CatalogueService } from '../catalogue/service.ts'
import type { Database } from '../platform/db/client.ts'
import { csvCell } from '../platform/http/csv.ts'
import { err, ok, type Result } from '../platform/result.ts'
import { shoutProofPage } from '../player/proof-reads.ts'

// The proof-of-play export (docs/console.md): one CSV row per proven play, sold shouts' and ads',
// in the order they started, for a billboard, an event or the whole fleet over a period. It is
// streamed: the database is read a page at a time (an index each, proof-reads.ts), each page is
// written out before the next is read, and the reader's pace holds the reading back (a pull stream),
// so a month of a 200-screen fleet never sits in memory at once.

/** Rows read a page at a time: large enough to keep the database busy, small enough to stay flat. */
const PAGE_ROWS = 2000
const DAY_MS = 86_400_000
/** The period when none is asked: the last 30 days to today. */
const DEFAULT_DAYS = 30

export type ProofExportQuery = {
  deviceId?: string | undefined
  eventSlug?: string | undefined
  /** first and last day (YYYY-MM-DD): the billboard's local days, UTC's for the fleet */
  from?: string | undefined
  to?: string | undefined
}

export type ProofExportError = { code: 'device_not_found' } | { code: 'event_not_found' }

export type ProofExport = {
  /** The file's name, which says what is in it. */
  filename: string
  /** The CSV, a page of rows a chunk. */
  chunks: () => AsyncGenerator<string>
}

export function createProofExport(deps: {
  database: Database
  catalogue: CatalogueService
  now: () => number
}) {
  const db = deps.database

  /** What an export covers, checked before a byte is written (an unknown billboard is a 404). */
  async function proofExport(
    query: ProofExportQuery,
  ): Promise<Result<ProofExport, ProofExportError>> {
    const zones = new Map((await billboards(db)).map((b) => [b.deviceId, b.timeZoneId]))
    let deviceIds: string[] | null = null
    let fromMs: number
    let untilMs: number
    let name: string
    if (query.eventSlug !== undefined) {
      const event = await deps.catalogue.findEvent(query.eventSlug)
      if (!event.ok) return err({ code: 'event_not_found' })
      const devices = await devicesOfEvent(db, query.eventSlug)
      deviceIds = devices.map((d) => d.deviceId)
      if (query.deviceId !== undefined) {
        if (!deviceIds.includes(query.deviceId)) return err({ code: 'device_not_found' })
        deviceIds = [query.deviceId]
      }
      // the event's window on each of its clocks: from the earliest start to the latest end
      const windows = devices.map((d) => eventWindowEpochMs(event.value, d.timeZoneId))
      fromMs = Math.min(...windows.map((w) => w.startEpochMs))
      untilMs = Math.max(...windows.map((w) => w.endEpochMs))
      name = query.eventSlug
    } else {
      const zone = query.deviceId === undefined ? 'UTC' : zones.get(query.deviceId)
      if (zone === undefined) return err({ code: 'device_not_found' })
      if (query.deviceId !== undefined) deviceIds = [query.deviceId]
      const today = new Date(deps.now()).toISOString().slice(0, 10)
      const to = query.to ?? today
      const from =
        query.from ??
        new Date(Date.parse(to) - (DEFAULT_DAYS - 1) * DAY_MS).toISOString().slice(0, 10)
      fromMs = dayStart(from, zone)
      untilMs = dayStart(Temporal.PlainDate.from(to).add({ days: 1 }).toString(), zone)
      name = `${query.deviceId ?? 'fleet'}-${from}-${to}`
    }
    if (deviceIds !== null && deviceIds.length === 0) untilMs = fromMs
    const range = { deviceIds, fromMs, untilMs }
    return ok({
      filename: `proof-of-play-${name}.csv`.replace(/[^\w.-]/g, '_'),
      chunks: () => csvChunks(range, zones),
    })
  }

  /** The header, then a chunk of lines per page read, shouts and ads merged in starting order. */
  async function* csvChunks(
    range: { deviceIds: string[] | null; fromMs: number; untilMs: number },
    zones: Map<string, string>,
  ): AsyncGenerator<string> {
    yield `${PROOF_COLUMNS.join(',')}\r\n`
    const clocks = new Map<string, (epochMs: number) => string>()
    const clockOf = (zone: string) => {
      let clock = clocks.get(zone)
      if (!clock) {
        clock = localClock(zone)
        clocks.set(zone, clock)
      }
      return clock
    }
    let lines: string[] = []
    for await (const play of merged(shoutPlays(range, zones), adPlays(range, zones))) {
      lines.push(proofCells(play, clockOf(play.timeZoneId)).map(csvCell).join(','))
      if (lines.length >= PAGE_ROWS) {
        yield `${lines.join('\r\n')}\r\n`
        lines = []
      }
    }
    if (lines.length > 0) yield `${lines.join('\r\n')}\r\n`
  }

  async function* shoutPlays(
    range: { deviceIds: string[] | null; fromMs: number; untilMs: number },
    zones: Map<string, string>,
  ): AsyncGenerator<ProvenPlay> {
    let after: { startEpochMs: number; id: string } | undefined
    for (;;) {
      const page = await shoutProofPage(db, { ...range, after, limit: PAGE_ROWS })
      for (const row of page) {
        yield {
          deviceId: row.deviceId,
          timeZoneId: zones.get(row.deviceId) ?? 'UTC',
          startEpochMs: row.startedAtEpochMs,
          endEpochMs: row.endedAtEpochMs,
          kind: 'shout',
          orderGuid: row.orderGuid,
          campaignId: null,
          contentId: row.contentKey,
          proofId: row.playId,
          reportedAtEpochMs: row.receivedAtEpochMs,
        }
      }
      const last = page[page.length - 1]
      if (page.length < PAGE_ROWS || !last) return
      after = { startEpochMs: last.startedAtEpochMs, id: last.playId }
    }
  }

  async function* adPlays(
    range: { deviceIds: string[] | null; fromMs: number; untilMs: number },
    zones: Map<string, string>,
  ): AsyncGenerator<ProvenPlay> {
    let after: { startEpochMs: number; id: string } | undefined
    for (;;) {
      const page = await adProofPage(db, { ...range, after, limit: PAGE_ROWS })
      for (const row of page) {
        yield {
          deviceId: row.deviceId,
          timeZoneId: zones.get(row.deviceId) ?? 'UTC',
          startEpochMs: row.startEpochMs,
          endEpochMs: row.endEpochMs,
          kind: 'ad',
          orderGuid: null,
          campaignId: row.campaignId,
          contentId: row.contentGuid,
          proofId: row.proofPlayId ?? '',
          reportedAtEpochMs: row.provenAtEpochMs,
        }
      }
      const last = page[page.length - 1]
      if (page.length < PAGE_ROWS || !last) return
      after = { startEpochMs: last.startEpochMs, id: last.deviceId }
    }
  }

  return { proofExport }
}

/** The first moment of a day (YYYY-MM-DD) on a zone's clock. */
function dayStart(day: string, zone: string): number {
  return Temporal.PlainDate.from(day).toZonedDateTime({ timeZone: zone }).epochMilliseconds
}

/** Two streams, each in starting order, as one in starting order. */
async function* merged(
  a: AsyncGenerator<ProvenPlay>,
  b: AsyncGenerator<ProvenPlay>,
): AsyncGenerator<ProvenPlay> {
  let x = await a.next()
  let y = await b.next()
  while (!x.done || !y.done) {
    if (y.done || (!x.done && x.value.startEpochMs <= y.value.startEpochMs)) {
      yield x.value as ProvenPlay
      x = await a.next()
    } else {
      yield y.value
      y = await b.next()
    }
  }
}
