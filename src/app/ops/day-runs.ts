import type { OpsScheduleDay, PlayProof } from '../../contract/ops/billboards'

// A billboard's day as runs to draw (day-timeline.tsx): plays of one kind, one thing played and one
// proof, close together, joined into one run; and the house card's runs, the time no play holds.

export type Kind = 'shout' | 'ad' | 'house'
export type Run = {
  kind: Kind
  startEpochMs: number
  endEpochMs: number
  plays: number
  /** what played: an order's short id and e-mail, a campaign's name; null for the house card */
  what: string | null
  proof: PlayProof | null
}

type Play = Omit<Run, 'plays'>

/** Runs closer than this share of the day are drawn as one (about 5 minutes of a 24-hour day). */
const JOIN_SHARE = 1 / 300

/** The day's plays joined into runs of one kind, one thing played and one proof. */
export function runsOf(day: OpsScheduleDay): Run[] {
  const shouts: Play[] = day.events.flatMap((event) =>
    event.slots.flatMap((slot) =>
      slot.order
        ? slot.plays.map((p) => ({
            kind: 'shout' as const,
            startEpochMs: p.startEpochMs,
            endEpochMs: p.endEpochMs,
            what: `${slot.order?.guid.slice(0, 8)} ${slot.order?.email}`,
            proof: p.proof,
          }))
        : [],
    ),
  )
  const ads: Play[] = day.adPlays.map((p) => ({
    kind: 'ad',
    startEpochMs: p.startEpochMs,
    endEpochMs: p.endEpochMs,
    what: p.campaignName,
    proof: p.proof,
  }))
  const join = (day.dayEndEpochMs - day.dayStartEpochMs) * JOIN_SHARE
  const runs: Run[] = []
  for (const play of [...shouts, ...ads].sort((a, b) => a.startEpochMs - b.startEpochMs)) {
    const last = runs.findLast((r) => r.kind === play.kind)
    if (
      last &&
      last.what === play.what &&
      last.proof === play.proof &&
      play.startEpochMs - last.endEpochMs <= join
    ) {
      last.endEpochMs = Math.max(last.endEpochMs, play.endEpochMs)
      last.plays++
    } else runs.push({ ...play, plays: 1 })
  }
  // the house card: whatever time of the day no play holds
  const busy = [...shouts, ...ads].sort((a, b) => a.startEpochMs - b.startEpochMs)
  let from = day.dayStartEpochMs
  const house: Run[] = []
  // gaps shorter than a run's join are left out: at a day's scale they are part of the run
  const free = (to: number) => {
    if (to - from >= join)
      house.push({
        kind: 'house',
        startEpochMs: from,
        endEpochMs: to,
        plays: 0,
        what: null,
        proof: null,
      })
  }
  for (const play of busy) {
    if (play.startEpochMs > from) free(Math.min(play.startEpochMs, day.dayEndEpochMs))
    from = Math.max(from, play.endEpochMs)
  }
  if (from < day.dayEndEpochMs) free(day.dayEndEpochMs)
  return [...house, ...runs].sort((a, b) => a.startEpochMs - b.startEpochMs)
}
