import { catchUpStarts, MISSED_AFTER_MS, missedPlays } from '../../../domain/ad-playout.ts'
import { AD_PLAY_MS } from '../../../domain/ad-time.ts'
import { adBillboards } from '../../catalogue/ad-reads.ts'
import type { Database } from '../../platform/db/client.ts'
import type { Logger } from '../../platform/log.ts'
import { campaignById } from '../campaigns/repo.ts'
import { type AirChanged, airTransactions } from '../on-air/changes.ts'
import { openCellsOf } from './ad-cells.ts'
import {
  campaignsWithMissedPlays,
  type NewPlay,
  playsOf,
  releaseMissed,
  reservePlays,
} from './repo.ts'

// Pacing (the `ad-pacing` job; rules in src/domain/ad-playout.ts): a play no proof came for within
// MISSED_AFTER_MS of its start (a billboard dark for an hour) is given up and freed, never charged,
// and as many plays are reserved again in the flight's ad cells still open on that billboard, spread
// evenly, as far as the budget pays beside the proven and held plays. All under the campaign's lock,
// in one transaction: a crash leaves the plays as they were.

/** A catch-up play starts this long from now at the earliest: the players fetch it first. */
export const CATCH_UP_LEAD_MS = 15 * 60_000

export type Pacing = ReturnType<typeof createPacing>

export function createPacing(deps: {
  /** Told once a change of what is on air committed (on-air/changes.ts). */
  airChanged: AirChanged
  database: Database
  now: () => number
  defaultSharePercent: number
  log: Logger
}) {
  const db = deps.database
  const airTransaction = airTransactions(db, deps.airChanged)

  /** Replaces the campaign's missed plays; answers how many were caught up. */
  async function catchUp(campaignId: string): Promise<number> {
    return airTransaction(async (tx) => {
      const campaign = await campaignById(tx, campaignId, { lock: true })
      if (!campaign || (campaign.state !== 'Approved' && campaign.state !== 'Live')) return 0
      const nowMs = deps.now()
      const plays = (await playsOf(tx, campaignId)).map((p) => ({
        ...p,
        startEpochMs: Number(p.startEpochMs),
      }))
      const missed = missedPlays(plays, nowMs)
      if (missed.length === 0) return 0
      await releaseMissed(tx, campaignId, missed)
      const gone = new Set(missed.map((p) => `${p.deviceId} ${p.startEpochMs}`))
      const kept = plays.filter((p) => !gone.has(`${p.deviceId} ${p.startEpochMs}`))
      const spentCents = kept.filter((p) => p.proven).reduce((n, p) => n + p.costCents, 0)
      let committedCents = kept.filter((p) => !p.proven).reduce((n, p) => n + p.costCents, 0)
      const devices = [...new Set(missed.map((p) => p.deviceId))].sort()
      const billboards = new Map(
        (await adBillboards(tx, devices)).map((b) => [b.deviceId, b] as const),
      )
      // a flight's open cells, a piece at a time (ad-cells.ts): the job shares the event loop
      const open = await openCellsOf(
        tx,
        [...billboards.values()].map((b) => ({
          deviceId: b.deviceId,
          time: { timeZoneId: b.timeZoneId, events: b.events },
        })),
        {
          startEpochMs: campaign.startEpochMs,
          endEpochMs: campaign.endEpochMs,
          dayparts: campaign.dayparts,
          notBeforeEpochMs: nowMs + CATCH_UP_LEAD_MS,
        },
        deps.defaultSharePercent,
      )
      const fresh: NewPlay[] = []
      for (const deviceId of devices) {
        const billboard = billboards.get(deviceId)
        const ofDevice = missed.filter((p) => p.deviceId === deviceId)
        const sample = ofDevice[0]
        if (!billboard || !sample) continue
        const openCells = open.get(deviceId) ?? []
        const starts = catchUpStarts({
          missed: ofDevice.length,
          openCells,
          costCentsPerPlay: sample.costCents,
          budgetCents: campaign.budgetCents,
          spentCents,
          committedCents,
        })
        committedCents += starts.length * sample.costCents
        for (const start of starts) {
          fresh.push({
            deviceId,
            startEpochMs: start,
            endEpochMs: start + AD_PLAY_MS,
            costCents: sample.costCents,
            impressions: sample.impressions,
          })
        }
      }
      const caught = await reservePlays(tx, campaignId, fresh, nowMs)
      deps.log.info('missed ad plays caught up', { campaignId, missed: missed.length, caught })
      return caught
    })
  }

  /** One run of the job: every campaign on air with missed plays, a page at a time. */
  async function run(signal?: AbortSignal): Promise<number> {
    let caught = 0
    let after = ''
    for (;;) {
      const page = await campaignsWithMissedPlays(db, deps.now() - MISSED_AFTER_MS, after, 100)
      for (const campaignId of page) {
        if (signal?.aborted) return caught
        caught += await catchUp(campaignId)
      }
      if (page.length < 100) return caught
      after = page[page.length - 1] as string
    }
  }

  return { run, catchUp }
}
