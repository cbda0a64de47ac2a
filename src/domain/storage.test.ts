import { describe, expect, it } from 'vitest'
import {
  ASYNC_POLL_MS,
  DEVICE_PAGE_SIZE,
  envelope,
  isFresh,
  mayCheckOrderStatus,
  ORDER_STATUS_MAX_CHECKS,
  openEnvelope,
  orderStatusDelayMs,
  STATUS_RESET_MS,
  TTL,
  VIDEO_PROCESSING_MAX_MS,
} from './storage'

describe('lifetimes (spec §9)', () => {
  it('keeps order data, template and generated content 60 minutes', () => {
    expect(TTL.orderData).toBe(3_600_000)
    expect(TTL.template).toBe(3_600_000)
    expect(TTL.generatedContent).toBe(3_600_000)
  })
  it('keeps modes, value per slot and active device 1 hour, upload ids 4 minutes', () => {
    expect([TTL.modes, TTL.valuePerSlot, TTL.activeDevice]).toEqual([
      3_600_000, 3_600_000, 3_600_000,
    ])
    expect(TTL.uploadIds).toBe(240_000)
  })
  it('timings', () => {
    expect(STATUS_RESET_MS).toBe(3000)
    expect(ASYNC_POLL_MS).toBe(3000)
    expect(VIDEO_PROCESSING_MAX_MS).toBe(30_000)
    expect(DEVICE_PAGE_SIZE).toBe(200)
  })
})

describe('order status polling (spec §7)', () => {
  it('waits 500 ms times the check number', () => {
    expect([1, 2, 10].map(orderStatusDelayMs)).toEqual([500, 1000, 5000])
  })
  it('stops once the check number exceeds 10', () => {
    expect(ORDER_STATUS_MAX_CHECKS).toBe(10)
    expect(mayCheckOrderStatus(10)).toBe(true)
    expect(mayCheckOrderStatus(11)).toBe(false)
  })
})

describe('persisted envelopes', () => {
  it('are fresh until their lifetime ends', () => {
    const saved = envelope({ deviceId: 'd' }, TTL.uploadIds, 1_000)
    expect(saved).toEqual({ version: 1, savedAt: 1_000, ttlMs: 240_000, data: { deviceId: 'd' } })
    expect(isFresh(saved, 1_000)).toBe(true)
    expect(isFresh(saved, 240_999)).toBe(true)
    expect(isFresh(saved, 241_000)).toBe(false)
  })
  it('from the future are not trusted', () => {
    expect(isFresh(envelope(1, TTL.orderData, 5_000), 4_999)).toBe(false)
  })
  it('read as their data while fresh and of the expected version', () => {
    const saved = envelope({ deviceId: 'd' }, TTL.uploadIds, 1_000, 2)
    expect(openEnvelope(saved, 2, 240_999)).toEqual({ data: { deviceId: 'd' } })
  })
  it('read as absent when expired, of another version, from the future or not an envelope', () => {
    const saved = envelope({ deviceId: 'd' }, TTL.uploadIds, 1_000, 2)
    expect(openEnvelope(saved, 2, 241_000)).toBeNull()
    expect(openEnvelope(saved, 1, 2_000)).toBeNull()
    expect(openEnvelope(saved, 2, 999)).toBeNull()
    expect(openEnvelope({ deviceId: 'd' }, 2, 2_000)).toBeNull()
    expect(openEnvelope({ ...saved, savedAt: '1000' }, 2, 2_000)).toBeNull()
    expect(openEnvelope(null, 2, 2_000)).toBeNull()
    expect(openEnvelope('envelope', 2, 2_000)).toBeNull()
  })
})
