import { describe, expect, it } from 'vitest'
import { mayPrefetch } from './prefetch'

describe('spec §9 link prefetch', () => {
  it('prefetches online on a fast or unknown connection', () => {
    expect(mayPrefetch({ online: true })).toBe(true)
    expect(mayPrefetch({ online: true, effectiveType: '4g', saveData: false })).toBe(true)
    expect(mayPrefetch({ online: true, effectiveType: '3g' })).toBe(true)
  })

  it('never offline, on 2g or with data saving on', () => {
    expect(mayPrefetch({ online: false, effectiveType: '4g' })).toBe(false)
    expect(mayPrefetch({ online: true, effectiveType: '2g' })).toBe(false)
    expect(mayPrefetch({ online: true, effectiveType: 'slow-2g' })).toBe(false)
    expect(mayPrefetch({ online: true, effectiveType: '4g', saveData: true })).toBe(false)
  })
})
