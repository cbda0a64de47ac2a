import { describe, expect, it } from 'vitest'
import { type FleetBillboard, fleetCounts, fleetMatches, troubleFirst } from './fleet'

const billboard = (deviceId: string, over: Partial<FleetBillboard> = {}): FleetBillboard => ({
  deviceId,
  location: deviceId,
  city: 'Paris',
  state: 'playing',
  clockOffsetMs: 0,
  filesFailed: 0,
  nextHourDue: 0,
  ...over,
})

describe('the fleet', () => {
  it('puts first the offline billboard with sold plays in the hour ahead, then late, then clock or files', () => {
    const fleet = [
      billboard('fine'),
      billboard('never', { state: 'never', clockOffsetMs: null, filesFailed: null }),
      billboard('quiet-offline', { state: 'offline' }),
      billboard('files', { filesFailed: 2 }),
      billboard('clock', { clockOffsetMs: 300_000 }),
      billboard('late', { state: 'stale' }),
      billboard('losing-money', { state: 'offline', nextHourDue: 8 }),
    ]
    expect(troubleFirst(fleet).map((b) => b.deviceId)).toEqual([
      'losing-money',
      'late',
      'clock',
      'files',
      'quiet-offline',
      'never',
      'fine',
    ])
  })

  it('finds a billboard by its name, city or id, whatever the case and accents', () => {
    const opera = billboard('paris-opera-1', { location: 'Opéra', city: 'Paris' })
    expect(fleetMatches(opera, 'opera')).toBe(true)
    expect(fleetMatches(opera, 'PARIS opé')).toBe(true)
    expect(fleetMatches(opera, 'opera-1')).toBe(true)
    expect(fleetMatches(opera, 'lyon')).toBe(false)
    expect(fleetMatches(opera, '  ')).toBe(true)
  })

  it('counts the billboards in each state', () => {
    expect(
      fleetCounts([billboard('a'), billboard('b', { state: 'offline' }), billboard('c')]),
    ).toEqual({ playing: 2, stale: 0, offline: 1, never: 0 })
  })
})
