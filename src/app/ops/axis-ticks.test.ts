import { describe, expect, it } from 'vitest'
import { axisTicks } from './axis-ticks'
import { hourIn } from './format'

const DAY_START = Date.UTC(2026, 10, 28, 23) // midnight in Paris
const DAY_END = DAY_START + 24 * 3_600_000
const label = (ms: number) => hourIn(ms, 'en', 'Europe/Paris')

describe("a day's axis", () => {
  it('has fewer ticks the narrower it is, and never more labels than fit side by side', () => {
    const phone = axisTicks(DAY_START, DAY_END, 300, label)
    const desk = axisTicks(DAY_START, DAY_END, 1000, label)
    expect(phone.length).toBeLessThan(desk.length)
    for (const [width, ticks] of [
      [300, phone],
      [1000, desk],
    ] as const) {
      const room = Math.max(...ticks.map((t) => label(t).length * 7 + 16))
      expect(ticks.length * room).toBeLessThanOrEqual(width)
    }
    expect(label(phone[1] as number)).toBe('6 AM')
  })

  it('draws every six hours before its width is known', () => {
    expect(axisTicks(DAY_START, DAY_END, null, label)).toHaveLength(5)
  })
})
