import { XMLParser } from 'fast-xml-parser'
import { describe, expect, it } from 'vitest'
import type { Schedule } from '../../contract/index.ts'
import { notModified, scheduleSmil } from './smil.ts'

const T0 = Date.UTC(2027, 4, 7, 8, 0, 0) // 10:00 in Paris
const schedule = (items: Schedule['items']): Schedule => ({
  deviceId: 'paris-opera-1',
  timeZoneId: 'Europe/Paris',
  widthPx: 1400,
  heightPx: 400,
  fromEpochMs: T0,
  toEpochMs: T0 + 120_000,
  generatedAtEpochMs: T0,
  house: {
    eventSlug: 'love',
    eventName: 'Love & <Peace>',
    locale: 'fr',
    valueCentsPerSlot: 4000,
    currency: 'EUR',
    shopUrl: 'https://shop.example/love?device=paris-opera-1',
  },
  items,
})
const clip = {
  orderGuid: 'o-1',
  slotNumber: 3,
  playIndex: 0,
  startEpochMs: T0 + 30_000,
  endEpochMs: T0 + 45_000,
  content: {
    url: 'https://shop.example/api/v1/content/files/a.mp4',
    type: 'video' as const,
    widthPx: 1400,
    heightPx: 400,
    durationSeconds: 15,
  },
}
const CARD = 'https://shop.example/api/v1/player/paris-opera-1/house-card.png?v=x&y=1'

const LOGS = {
  playLogAction: 'https://shop.example/api/v1/player/paris-opera-1/play-logs/T0K3N',
  popEndpoint: 'https://shop.example/api/v1/player/paris-opera-1/pop-reports?token=T0K3N&x=1',
}
const smil = (items: Schedule['items']) => scheduleSmil(schedule(items), CARD, LOGS)

describe('the SMIL playlist', () => {
  it('plays a video shout in its own class between two stretches of looping house card, every item above the one before it, muted by its file (no soundLevel)', () => {
    const { body } = smil([clip])
    const classes = body.split('<priorityClass ').slice(1)
    const seqsOf = (part: string) =>
      [
        ...part.matchAll(
          /<seq begin="([^"]+)" end="([^"]+)"( repeatCount="indefinite")?>(.*?)<\/seq>/g,
        ),
      ].map((m) => [
        m[1],
        m[2],
        m[3] !== undefined,
        m[4]?.match(/^<(\w+)/)?.[1],
        m[4]?.match(/dur="(\w+)"/)?.[1],
      ])
    // one item a class, latest first: each item outranks the one it follows, so it stops it on time;
    // the house card is a 2-second image repeated until its stretch ends (one stretch per gap)
    expect(classes.map(seqsOf)).toEqual([
      [['wallclock(2027-05-07T10:00:45)', 'wallclock(2027-05-07T10:02:00)', true, 'img', '2s']],
      [['wallclock(2027-05-07T10:00:30)', 'wallclock(2027-05-07T10:00:45)', false, 'video', '15s']],
      [['wallclock(2027-05-07T10:00:00)', 'wallclock(2027-05-07T10:00:30)', true, 'img', '2s']],
    ])
    expect(body).toMatch(
      /<video src="https:\/\/shop\.example\/api\/v1\/content\/files\/a\.mp4" region="screen" fit="meet" dur="15s" popName="shout" popCustomId="(\d+-[\w-]{22})" popType="video"><param name="logContentId" value="\1"\/><\/video>/,
    )
    expect(body).not.toContain('soundLevel')
    // the logged id tells nothing of the order
    expect(body).not.toContain('o-1')
  })

  it('escapes what the catalogue wrote and the log addresses, and stays well-formed', () => {
    const { body } = smil([])
    const parsed = new XMLParser({
      ignoreAttributes: false,
      attributeNamePrefix: '',
      htmlEntities: true,
    }).parse(body)
    expect(parsed.smil.head.meta[0].content).toBe('Love & <Peace>: paris-opera-1')
    expect(parsed.smil.head.meta[1].endpoint).toBe(LOGS.popEndpoint)
    const excl = parsed.smil.body.par.excl
    expect(excl.priorityClass.seq.img.src).toBe(CARD) // one stretch of house card: one class
    expect(parsed.smil.body.par.seq.prefetch.src).toBe(CARD)
  })

  it('holds 105 elements, 22 of them seqs in 21 priorityClasses, for 25 hours with 10 sold plays of 10 files (a piece of house card a minute made 1,506 seqs)', () => {
    const items = Array.from({ length: 10 }, (_, i) => ({
      ...clip,
      playIndex: i,
      startEpochMs: T0 + (i * 2 + 1) * 3_600_000,
      endEpochMs: T0 + (i * 2 + 1) * 3_600_000 + 15_000,
      content: { ...clip.content, url: `https://shop.example/api/v1/content/files/${i}.mp4` },
    }))
    const day = { ...schedule(items), toEpochMs: T0 + 25 * 3_600_000 }
    const { body } = scheduleSmil(day, CARD, LOGS)
    type Node = Record<string, unknown>
    const names: string[] = []
    const walk = (nodes: Node[]) => {
      for (const node of nodes) {
        const name = Object.keys(node).find((k) => k !== ':@')
        if (!name || name.startsWith('?') || name === '#text') continue
        names.push(name)
        walk(node[name] as Node[])
      }
    }
    walk(new XMLParser({ ignoreAttributes: false, preserveOrder: true }).parse(body) as Node[])
    expect(names.filter((n) => n === 'seq')).toHaveLength(22)
    expect(names.filter((n) => n === 'prefetch')).toHaveLength(11)
    expect(names.filter((n) => n === 'priorityClass')).toHaveLength(21)
    expect(names).toHaveLength(105)
  })

  it('has the same ETag for the same document, another for another', () => {
    const a = smil([clip])
    expect(smil([clip]).etag).toBe(a.etag)
    expect(smil([]).etag).not.toBe(a.etag)
  })
})

describe('conditional requests for the playlist', () => {
  const current = { etag: '"abc"', lastModifiedEpochMs: Date.UTC(2027, 4, 7, 8, 0, 0, 400) }
  const ask = (ifNoneMatch?: string, ifModifiedSince?: string) =>
    notModified({ ifNoneMatch, ifModifiedSince }, current)
  it('matches the ETag quoted, bare (garlic-player), weak, in a list, or *', () => {
    for (const tag of ['"abc"', 'abc', 'W/"abc"', '"x", "abc"', '*'])
      expect(ask(tag), tag).toBe(true)
    expect(ask('"abd"')).toBe(false)
  })
  it('compares If-Modified-Since to the second, and lets If-None-Match win', () => {
    expect(ask(undefined, 'Fri, 07 May 2027 08:00:00 GMT')).toBe(true)
    expect(ask(undefined, 'Fri, 07 May 2027 07:59:59 GMT')).toBe(false)
    expect(ask(undefined, 'not a date')).toBe(false)
    expect(ask('"other"', 'Fri, 07 May 2027 08:00:00 GMT')).toBe(false)
    expect(ask()).toBe(false)
  })
})
