import { loadavg } from 'node:os'

// Figures from a busy machine are not the product's: each is printed with the load average beside it,
// as the median and spread of several runs.

/** The load average over 1, 5 and 15 minutes. */
export const load = (): string =>
  loadavg()
    .map((l) => l.toFixed(2))
    .join(' ')

export const median = (xs: number[]): number => {
  const s = [...xs].sort((a, b) => a - b)
  return s[Math.floor(s.length / 2)] ?? 0
}

/** "median (min–max)". */
export const spread = (xs: number[], digits = 0): string =>
  `${median(xs).toFixed(digits)} (${Math.min(...xs).toFixed(digits)}–${Math.max(...xs).toFixed(digits)})`
