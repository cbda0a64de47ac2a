import { describe, expect, it } from 'vitest'
import { createWorkGate } from './work-gate.ts'

/** A task that ends when the test says so. */
function heldTask() {
  let end: (value: string) => void = () => {}
  const done = new Promise<string>((resolve) => {
    end = resolve
  })
  return { task: () => done, end }
}

describe('the work gate', () => {
  it('runs two at once, keeps three waiting, and turns the next away at once', async () => {
    const gate = createWorkGate({ running: 2, waiting: 3 })
    const held = Array.from({ length: 5 }, heldTask)
    const runs = held.map((h) => gate.run(h.task))
    expect(gate.load()).toEqual({ running: 2, waiting: 3 })
    expect(await gate.run(async () => 'late')).toEqual({ ok: false })

    // the first ends: the first in line takes its place, and there is room in line again
    held[0]?.end('a')
    expect(await runs[0]).toEqual({ ok: true, value: 'a' })
    expect(gate.load()).toEqual({ running: 2, waiting: 2 })
    const sixth = gate.run(async () => 'f')
    expect(gate.load()).toEqual({ running: 2, waiting: 3 })

    for (const [i, h] of held.entries()) if (i > 0) h.end(String(i))
    expect((await Promise.all(runs.slice(1))).map((r) => r.ok)).toEqual([true, true, true, true])
    expect(await sixth).toEqual({ ok: true, value: 'f' })
    expect(gate.load()).toEqual({ running: 0, waiting: 0 })
  })

  it('frees the place of a task that throws', async () => {
    const gate = createWorkGate({ running: 1, waiting: 0 })
    await expect(gate.run(() => Promise.reject(new Error('argon2 failed')))).rejects.toThrow(
      'argon2 failed',
    )
    expect(await gate.run(async () => 1)).toEqual({ ok: true, value: 1 })
  })
})
