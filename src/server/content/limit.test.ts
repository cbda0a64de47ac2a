import { describe, expect, it } from 'vitest'
import { createLimiter } from './limit.ts'

describe('createLimiter', () => {
  it('runs at most the given number of tasks at once, all of them in the end', async () => {
    const limit = createLimiter(2)
    let running = 0
    let most = 0
    const task = (value: number) =>
      limit(async () => {
        running++
        most = Math.max(most, running)
        await new Promise((resolve) => setTimeout(resolve, 5))
        running--
        return value
      })
    expect(await Promise.all([1, 2, 3, 4, 5].map(task))).toEqual([1, 2, 3, 4, 5])
    expect(most).toBe(2)
  })

  it('frees its slot when a task fails', async () => {
    const limit = createLimiter(1)
    await expect(limit(() => Promise.reject(new Error('boom')))).rejects.toThrow('boom')
    expect(await limit(async () => 'next')).toBe('next')
  })
})
