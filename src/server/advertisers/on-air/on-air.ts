import {
  adPlayIndex,
  adPlayStart,
  airingAdPlays,
  carriedAt,
  type HeldAdPlay,
  matchesAdPlay,
} from '../../../domain/ad-playout.ts'
import type { AdTimeEvent } from '../../../domain/ad-time.ts'
import { playHasAired } from '../../../domain/schedule.ts'
import type { Database } from '../../platform/db/client.ts'
import { moveCampaign, movesOf } from '../campaigns/repo.ts'
import {
  type AdProof,
  type HeldPlayRow,
  heldPlaysOf,
  markResumeLive,
  proveAdPlays,
} from '../proposals/repo.ts'
import { type AirChanges, airTransactions } from './changes.ts'

// Campaigns on air (api-v1 "Player", src/domain/ad-playout.ts): the plays a billboard's schedule
// carries, and the proofs its player sends of them. The player's module asks; the ad_plays rows
// stay this module's. A billboard's held plays are kept a second per whole-hour span (a player asks
// every few minutes, a SMIL player and the web player often together), and read again behind the
// answers once older; a change made through this server drops them once it committed (changes.ts), so
// a pause shows from the schedule's next fetch.

/** How long a read of held plays is used: another instance's changes show within it. */
const HELD_TTL_MS = 1000
/** How old a read may be and still be answered while the next is made (then the fetch waits). */
const STALE_MAX_MS = 10_000
const HOUR_MS = 3_600_000

/** A billboard as the schedule has it: where its ad cells are and which rendition it shows. */
export type OnAirBillboard = {
  deviceId: string
  timeZoneId: string
  widthPx: number
  heightPx: number
  events: readonly AdTimeEvent[]
}

export type AdItem = {
  campaignId: string
  playIndex: number
  startEpochMs: number
  endEpochMs: number
  content: {
    url: string
    type: 'photo' | 'video'
    widthPx: number
    heightPx: number
    durationSeconds: number | null
  }
}

export type AdProofAnswer = { accepted: number; duplicates: number; refused: number }

export type OnAir = ReturnType<typeof createOnAir>

export function createOnAir(deps: {
  database: Database
  now: () => number
  /** AD_FREE_TIME_SHARE */
  defaultSharePercent: number
  /** The changes of what is on air (a campaign moved, plays reserved or freed), told once committed. */
  changes: AirChanges
  /** Tells the advertiser the campaign is on air (its first proven play; campaigns/completion.ts). */
  onLive?: (campaignId: string) => Promise<void>
}) {
  const db = deps.database
  const airTransaction = airTransactions(db, deps.changes.changed)
  type Kept = {
    at: number
    generation: number
    rows: Promise<HeldPlayRow[]>
    /** The rows have come. */
    settled?: boolean
    /** The read that will replace them. */
    next?: Promise<HeldPlayRow[]>
  }
  const kept = new Map<string, Kept>()
  // The items last made of a read of held plays (a read is per billboard size, so the rendition too)
  const aired = new WeakMap<
    readonly HeldPlayRow[],
    {
      events: readonly AdTimeEvent[]
      timeZoneId: string
      fromEpochMs: number
      toEpochMs: number
      items: AdItem[]
    }
  >()

  /**
   * The held plays of [from, to) widened to whole hours, read once a second at most. When a read is
   * a second old it is still answered while the next one is made (a day of plays with campaigns
   * takes the database tens of milliseconds to read, and every fetch meanwhile would wait for it);
   * after a change through this server nobody gets the old rows.
   */
  function heldAround(deviceId: string, size: string, fromMs: number, toMs: number) {
    const from = Math.floor(fromMs / HOUR_MS) * HOUR_MS
    const to = Math.ceil(toMs / HOUR_MS) * HOUR_MS
    const key = `${deviceId}\u0000${size}\u0000${from}\u0000${to}`
    const t = deps.now()
    const generation = deps.changes.generation()
    const hit = kept.get(key)
    if (hit && hit.generation === generation) {
      const age = Math.abs(t - hit.at)
      if (age < HELD_TTL_MS) return hit.rows
      if (!hit.next) {
        const next = heldPlaysOf(db, deviceId, size, from, to)
        hit.next = next
        next.then(
          () => {
            if (kept.get(key) === hit)
              kept.set(key, { at: t, generation, rows: next, settled: true })
          },
          () => {
            if (kept.get(key) === hit) hit.next = undefined
          },
        )
      }
      return hit.settled && age < STALE_MAX_MS ? hit.rows : hit.next
    }
    const rows = heldPlaysOf(db, deviceId, size, from, to)
    if (kept.size >= 2000) kept.clear()
    const entry: Kept = { at: t, generation, rows }
    kept.set(key, entry)
    rows.then(
      () => {
        entry.settled = true
      },
      () => {
        if (kept.get(key) === entry) kept.delete(key)
      },
    )
    return rows
  }

  /**
   * The ad plays of the billboard in the window, as the schedule's items: of campaigns approved or
   * live (not paused), at the billboard's ad cells as its events stand, with the ad fitted to its
   * size (a campaign whose ad has no rendition of that size yet shows the house card instead).
   */
  async function items(
    billboard: OnAirBillboard,
    window: { fromEpochMs: number; toEpochMs: number },
  ): Promise<AdItem[]> {
    const held = await heldAround(
      billboard.deviceId,
      `${billboard.widthPx}x${billboard.heightPx}`,
      window.fromEpochMs,
      window.toEpochMs,
    )
    // the same rows, events and window give the same items: computed once per read of the rows
    const hit = aired.get(held)
    if (
      hit &&
      hit.events === billboard.events &&
      hit.timeZoneId === billboard.timeZoneId &&
      hit.fromEpochMs === window.fromEpochMs &&
      hit.toEpochMs === window.toEpochMs
    )
      return hit.items
    const airing = airingAdPlays(billboard, held, window, deps.defaultSharePercent)
    const out: AdItem[] = []
    for (const play of airing) {
      const r = play.rendition
      if (!r) continue
      out.push({
        campaignId: play.campaignId,
        playIndex: adPlayIndex(play.startEpochMs),
        startEpochMs: play.startEpochMs,
        endEpochMs: play.endEpochMs,
        content: {
          url: r.url,
          type: r.type ?? (/\.mp4$/i.test(r.url) ? 'video' : 'photo'),
          widthPx: billboard.widthPx,
          heightPx: billboard.heightPx,
          durationSeconds: r.durationSeconds ?? null,
        },
      })
    }
    aired.set(held, {
      events: billboard.events,
      timeZoneId: billboard.timeZoneId,
      fromEpochMs: window.fromEpochMs,
      toEpochMs: window.toEpochMs,
      items: out,
    })
    return out
  }

  /**
   * Proofs of ad plays from the billboard's player: a proof of a play its campaign holds there (the
   * same cell, about its time, aired by our clock) and that the schedule carried then (the campaign
   * approved or live at the play's start, not paused: ad-playout.ts carriedAt) proves it once; a
   * play proven already, or repeated in the batch, is a duplicate; anything else is refused. The
   * campaign's state now does not count: a play that aired before its campaign completed or was
   * cancelled is proven by a proof that comes after (a player offline, a SMIL player's log sent
   * minutes later), and charged as any (settlement caps it by the budget); a cancel frees only the
   * plays still to come, so a later play is not held any more and its proof is refused. The first
   * proven play puts an approved campaign on air (Live).
   */
  async function prove(
    deviceId: string,
    proofs: readonly AdProof[],
    clockSkewMs: number,
  ): Promise<AdProofAnswer> {
    if (proofs.length === 0) return { accepted: 0, duplicates: 0, refused: 0 }
    const now = deps.now()
    const starts = [...new Set(proofs.map((p) => adPlayStart(p.playIndex)))]
    const held = new Map(
      (await heldPlaysOf(db, deviceId, null, Math.min(...starts), Math.max(...starts) + 1)).map(
        (p) => [p.startEpochMs, p],
      ),
    )
    const moves = await movesOf(db, [...new Set([...held.values()].map((p) => p.campaignId))])
    const seen = new Set<string>()
    let duplicates = 0
    let refused = 0
    const matching: AdProof[] = []
    for (const proof of proofs) {
      const key = `${proof.campaignId} ${proof.playIndex}`
      if (seen.has(key) || seen.has(proof.playId)) {
        duplicates++
        continue
      }
      seen.add(key)
      seen.add(proof.playId)
      const play = held.get(adPlayStart(proof.playIndex))
      const fits =
        play !== undefined &&
        matchesAdPlay(proof, play) &&
        carriedAt(moves.get(play.campaignId) ?? [], play.startEpochMs) &&
        playHasAired(proof, play.startEpochMs, now, clockSkewMs)
      if (!fits) refused++
      else if (play.proven) duplicates++
      else matching.push(proof)
    }
    if (matching.length === 0) return { accepted: 0, duplicates, refused }
    const wentLive: string[] = []
    const proven = await airTransaction(async (tx) => {
      wentLive.length = 0
      const campaigns = await proveAdPlays(tx, deviceId, matching, now)
      for (const campaignId of new Set(campaigns)) {
        const live = await moveCampaign(
          tx,
          campaignId,
          { from: ['Approved'], to: 'Live' },
          { actor: 'system' },
          now,
        )
        // a campaign paused before its first proof goes back on air as Live
        if (!live) await markResumeLive(tx, campaignId)
        else wentLive.push(campaignId)
      }
      return campaigns.length
    })
    for (const campaignId of wentLive) await deps.onLive?.(campaignId)
    // a proof stored by another request between the read and the update is a duplicate too
    return { accepted: proven, duplicates: duplicates + matching.length - proven, refused }
  }

  /**
   * Every ad play held on the billboard in the window, whatever its campaign's state now: a SMIL
   * player's log names a play that aired before its campaign was paused, cancelled or completed,
   * and prove decides by the campaign's history (carriedAt), as for the web player's proofs.
   */
  async function held(
    deviceId: string,
    window: { fromEpochMs: number; toEpochMs: number },
  ): Promise<HeldAdItem[]> {
    const rows = await heldPlaysOf(db, deviceId, null, window.fromEpochMs, window.toEpochMs)
    return rows.map((p) => ({
      campaignId: p.campaignId,
      playIndex: adPlayIndex(p.startEpochMs),
      startEpochMs: p.startEpochMs,
      endEpochMs: p.endEpochMs,
    }))
  }

  return { items, prove, held }
}

/** A held ad play as a play log finds it again. */
export type HeldAdItem = Pick<AdItem, 'campaignId' | 'playIndex' | 'startEpochMs' | 'endEpochMs'>

export type { HeldAdPlay }
