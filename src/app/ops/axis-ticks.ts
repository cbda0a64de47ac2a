// The hour ticks of a day's timeline (day-timeline.tsx), as many as fit.

/** Hours between ticks the axis may use, fewest ticks last. */
const TICK_HOURS = [1, 2, 3, 4, 6, 12, 24]
/** A tick label's room: its characters at the axis's 0.75rem (about 7 px each), plus a gap. */
const tickRoom = (label: string) => label.length * 7 + 16

/**
 * The ticks of a day's axis: the densest step whose labels fit side by side in the axis's width, so
 * no two overlap at any width (a phone gets every six or twelve hours, a desk every hour or two).
 * Before the width is known (the server's render), every six hours.
 */
export function axisTicks(
  startMs: number,
  endMs: number,
  widthPx: number | null,
  label: (epochMs: number) => string,
): number[] {
  const at = (step: number) => {
    const ticks: number[] = []
    for (let tick = startMs; tick <= endMs; tick += step * 3_600_000) ticks.push(tick)
    return ticks
  }
  if (widthPx === null) return at(6)
  for (const step of TICK_HOURS) {
    const ticks = at(step)
    const room = Math.max(...ticks.map((tick) => tickRoom(label(tick))))
    if (ticks.length * room <= widthPx) return ticks
  }
  return [startMs]
}
