import { gunzipSync } from 'node:zlib'
import { describe, expect, it } from 'vitest'
import type { Schedule, ScheduleItem } from '../../contract/index.ts'
import { createScheduleItems, scheduleBody } from './schedule-items.ts'

const T0 = Date.UTC(2027, 4, 7, 8, 0, 0)
const content = {
  url: 'https://shop.example/c/a.png',
  type: 'photo' as const,
  widthPx: 1400,
  heightPx: 400,
  durationSeconds: null,
}
const shout = (at: number, orderGuid: string): ScheduleItem => ({
  orderGuid,
  slotNumber: 3,
  playIndex: 0,
  startEpochMs: T0 + at,
  endEpochMs: T0 + at + 10_000,
  content,
})
const ad = (at: number, campaignId: string): ScheduleItem => ({
  campaignId,
  playIndex: Math.floor((T0 + at) / 15_000),
  startEpochMs: T0 + at,
  endEpochMs: T0 + at + 15_000,
  content,
})
const schedule = (items: ScheduleItem[], generatedAtEpochMs = T0): Schedule => ({
  deviceId: 'paris-opera-1',
  timeZoneId: 'Europe/Paris',
  widthPx: 1400,
  heightPx: 400,
  fromEpochMs: T0,
  toEpochMs: T0 + 3_600_000,
  generatedAtEpochMs,
  house: {
    eventSlug: 'love',
    eventName: 'Love "&" <Peace>',
    locale: 'fr',
    valueCentsPerSlot: 4000,
    currency: 'EUR',
    shopUrl: 'https://shop.example/love?device=paris-opera-1',
  },
  items,
})

describe("a billboard's schedule made of its pieces", () => {
  it('puts shouts and campaign plays in time order, ties by order or campaign', () => {
    const merged = createScheduleItems().of('w', [
      [shout(30_000, 'b'), shout(0, 'z')],
      [ad(15_000, 'c1'), ad(0, 'a1')],
    ])
    expect(merged.map((i) => `${i.startEpochMs - T0} ${i.orderGuid ?? i.campaignId}`)).toEqual([
      '0 a1',
      '0 z',
      '15000 c1',
      '30000 b',
    ])
  })

  it('answers the same list while no piece changed, and a new one as soon as one did', () => {
    const items = createScheduleItems()
    const shouts = [shout(0, 'o1')]
    const ads = [ad(15_000, 'c1')]
    const first = items.of('w', [shouts, ads])
    expect(items.of('w', [shouts, ads])).toBe(first)
    // a campaign paused: on-air hands out a new (empty) list of its plays
    const paused = items.of('w', [shouts, []])
    expect(paused).not.toBe(first)
    expect(paused.map((i) => i.orderGuid)).toEqual(['o1'])
    // another window of the same billboard is its own
    expect(items.of('other', [shouts, ads])).not.toBe(first)
  })

  it('writes the same JSON as the whole answer would, with the time of each answer', async () => {
    const scheduleJson = async (whole: Schedule) =>
      (await scheduleBody(whole, false)).body.toString()
    const list = createScheduleItems().of('w', [[shout(0, 'o1')], [ad(15_000, 'c1')]])
    const first = schedule(list, T0)
    const later = schedule(list, T0 + 1234)
    expect(await scheduleJson(first)).toBe(JSON.stringify(first))
    expect(await scheduleJson(later)).toBe(JSON.stringify(later))
    expect(JSON.parse(await scheduleJson(later)).generatedAtEpochMs).toBe(T0 + 1234)
    expect(await scheduleJson(schedule([]))).toBe(JSON.stringify(schedule([])))
  })

  it('gzips the same text, for each answer, when the client takes gzip and it is worth it', async () => {
    const day = Array.from({ length: 200 }, (_, i) => ad(i * 15_000, `c${i % 7}`))
    const list = createScheduleItems().of('w', [day])
    for (const at of [T0, T0 + 1234]) {
      const answer = await scheduleBody(schedule(list, at), true)
      expect(answer.gzipped).toBe(true)
      expect(gunzipSync(answer.body).toString()).toBe(JSON.stringify(schedule(list, at)))
    }
    const plain = await scheduleBody(schedule(list), false)
    expect(plain.gzipped).toBe(false)
    expect(plain.body.toString()).toBe(JSON.stringify(schedule(list)))
    // a short schedule travels as it is
    expect((await scheduleBody(schedule([]), true)).gzipped).toBe(false)
  })
})
