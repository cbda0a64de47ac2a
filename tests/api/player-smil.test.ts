import { XMLParser } from 'fast-xml-parser'
import { Temporal } from 'temporal-polyfill'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { player } from '../../src/contract/index.ts'
import { slotNumberAt, slotStartEpochMs } from '../../src/domain/index.ts'
import { sql } from '../../src/server/platform/db/sql.ts'
import {
  answerOf,
  BACKENDS,
  boughtOrder,
  type Client,
  type ContentSource,
  client,
  daySlots,
  eventOf,
  generateContent,
  LIVE,
  startTestServer,
  type TestServer,
} from './helpers.ts'

// Api-v1 "Player": the schedule as a SMIL playlist that signage players (signageOS, garlic-player)
// play on time, and reload only when it changed.
const DEVICE = 'paris-opera-1'
const PARIS = 'Europe/Paris'

type XmlElement = {
  name: string
  attributes: Record<string, string>
  children: XmlElement[]
  text: string
}

/** The document as elements in their order (fast-xml-parser's preserveOrder form, made readable). */
function parseSmil(xml: string): XmlElement {
  type Node = Record<string, unknown> & { ':@'?: Record<string, string> }
  const toElement = (node: Node): XmlElement | null => {
    const name = Object.keys(node).find((k) => k !== ':@')
    if (!name || name.startsWith('?') || name === '#text') return null
    const inside = node[name] as Node[]
    return {
      name,
      attributes: node[':@'] ?? {},
      children: inside.map(toElement).filter((e) => e !== null),
      text: inside.map((n) => String(n['#text'] ?? '')).join(''),
    }
  }
  const nodes = new XMLParser({
    ignoreAttributes: false,
    attributeNamePrefix: '',
    preserveOrder: true,
  }).parse(xml) as Node[]
  const root = nodes.map(toElement).find((e) => e?.name === 'smil')
  if (!root) throw new Error('no <smil> root')
  return root
}

const only = (children: XmlElement[], name: string): XmlElement => {
  const found = children.filter((e) => e.name === name)
  expect(found, name).toHaveLength(1)
  return found[0] as XmlElement
}

describe.each(BACKENDS)('the SMIL playlist on %s', (backend) => {
  let server: TestServer
  let api: Client
  let content: { key: string; source: ContentSource }
  let token: string
  let event: Awaited<ReturnType<typeof eventOf>>
  /** The server's clock when set (the playlist's default window starts at 00:00 or 12:00 UTC). */
  let clock: number | null = null

  const buy = (slots: number[]) => boughtOrder(api, { slots, content })

  beforeAll(async () => {
    server = await startTestServer(backend, {
      env: { PUBLIC_BASE_URL: 'https://shop.example' },
      now: () => clock ?? Date.now(),
    })
    api = client(server.url)
    content = await generateContent(api)
    const linked = await server.deps.player.link(DEVICE)
    if (!linked.ok) throw new Error('link failed')
    token = linked.value.token
    event = await eventOf(api, LIVE)
    expect((await buy(daySlots(2, 40, 2))).state).toBe('Confirmed')
  })
  afterAll(async () => {
    await server?.stop()
  })

  const dayWindow = () => {
    const from = slotStartEpochMs(event, PARIS, daySlots(2, 0, 1)[0] as number)
    return { fromEpochMs: from, toEpochMs: from + 24 * 3_600_000 }
  }
  const scheduleOf = async (query: string) =>
    answerOf(
      player.schedule,
      await api.get(`/player/${DEVICE}/schedule${query}`, { authorization: `Bearer ${token}` }),
    )

  const smilOf = (query: string, init: RequestInit = {}) =>
    fetch(`${server.url}/api/v1/player/${DEVICE}/schedule.smil?token=${token}${query}`, init)

  it('serves SMIL 3.0 that signage players play on time: one priorityClass per item, each above the one before it, each play a wallclock seq with one media element named for its play log, the house card repeated until its stretch ends', async () => {
    const w = dayWindow()
    const res = await smilOf(`&fromEpochMs=${w.fromEpochMs}&toEpochMs=${w.toEpochMs}`)
    expect(res.status).toBe(200)
    expect(res.headers.get('content-type')).toMatch(/^application\/smil\+xml/)
    const xml = await res.text()
    const smil = parseSmil(xml)
    // W3C SMIL 3.0 Tiny profile: the SMIL 3.0 namespace, baseProfile, head and body
    expect(smil.attributes).toMatchObject({
      xmlns: 'http://www.w3.org/ns/SMIL',
      version: '3.0',
      baseProfile: 'Tiny',
    })
    const head = only(smil.children, 'head')
    const layout = only(head.children, 'layout')
    expect(only(layout.children, 'root-layout').attributes).toMatchObject({
      width: '1400',
      height: '400',
    })
    // Refresh with a capital R (garlic), after every other meta (signageOS: the last one wins)
    const metas = head.children.filter((e) => e.name === 'meta')
    expect(metas.at(-1)?.attributes).toEqual({ 'http-equiv': 'Refresh', content: '300' })
    expect(metas.slice(0, -1).every((m) => !('http-equiv' in m.attributes))).toBe(true)
    // signageOS's proof of play: manual reports, to our endpoint only, the token in its query
    const log = metas.find((m) => m.attributes.log === 'true')
    expect(log?.attributes).toEqual({
      log: 'true',
      type: 'manual',
      endpoint: `https://shop.example/api/v1/player/${DEVICE}/pop-reports?token=${token}`,
      reportFileLimit: '100',
    })
    // garlic's and IAdea's: the A-SMIL subscription, every field (garlic reuses one parser object)
    const xServer = only(only(head.children, 'metadata').children, 'x-server')
    expect(xServer.attributes).toEqual({ xmlns: 'http://schemas.adfotain.org/adapi-1.0' })
    const subscription = only(only(xServer.children, 'subscriptionList').children, 'subscription')
    expect(
      Object.fromEntries(subscription.children.map((field) => [field.name, field.text])),
    ).toEqual({
      type: 'PlaylogCollection',
      action: `https://shop.example/api/v1/player/${DEVICE}/play-logs/${token}`,
      method: 'put',
      refreshInterval: '60',
      retryInterval: '60',
    })

    // body → one par, indefinite → a seq of prefetches, then an excl of two priorityClass
    const body = only(smil.children, 'body')
    const par = only(body.children, 'par')
    expect(par.attributes).toEqual({ dur: 'indefinite' })
    expect(par.children.map((e) => e.name)).toEqual(['seq', 'excl'])
    const excl = only(par.children, 'excl')
    // one priorityClass per item, each holding one seq
    expect(new Set(excl.children.map((e) => e.name))).toEqual(new Set(['priorityClass']))
    for (const c of excl.children) {
      expect(c.attributes).toEqual({ peers: 'stop', higher: 'stop', lower: 'defer' })
      expect(c.children.map((e) => e.name)).toEqual(['seq'])
    }
    const seqs = excl.children.map((c) => c.children[0] as XmlElement)
    const isPlay = (seq: XmlElement) => 'popCustomId' in (seq.children[0]?.attributes ?? {})
    const wall = /^wallclock\((\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d)\)$/
    const local = (value: string | undefined) => {
      const time = wall.exec(value ?? '')?.[1]
      expect(time, value).toBeDefined()
      return Temporal.PlainDateTime.from(time as string).toZonedDateTime(PARIS).epochMilliseconds
    }
    const spans = (items: XmlElement[]) =>
      items.map((seq) => {
        expect(seq.name).toBe('seq')
        const begin = local(seq.attributes.begin)
        const end = local(seq.attributes.end)
        expect(seq.children).toHaveLength(1)
        const media = seq.children[0] as XmlElement
        expect(media.name).toBe('img') // photo shouts and the house card
        expect(media.attributes).not.toHaveProperty('begin')
        expect(media.attributes).not.toHaveProperty('end')
        expect(media.attributes.src).toMatch(/^https:\/\/shop\.example\//)
        if (isPlay(seq)) {
          expect(Object.keys(seq.attributes).sort()).toEqual(['begin', 'end'])
          expect(media.attributes.dur).toBe(`${(end - begin) / 1000}s`)
        } else {
          // a short image repeated until the stretch ends (a player that restarts it after an
          // update looks its stop up again on each repeat)
          expect(seq.attributes.repeatCount).toBe('indefinite')
          expect(media.attributes.dur).toBe('2s')
        }
        return { begin, end, media }
      })
    // a later item ranks above an earlier one, whatever they are (each stops the one before it)
    const items = spans(seqs)
    expect(items.map((i) => i.begin)).toEqual(items.map((i) => i.begin).sort((a, b) => b - a))
    const plays = spans(seqs.filter(isPlay))
    const gaps = spans(seqs.filter((seq) => !isPlay(seq)))
    plays.reverse()
    gaps.reverse()
    // every sold play's media names its play for each player's log, the same id for all
    for (const { media } of plays) {
      const id = media.attributes.popCustomId
      expect(id).toMatch(/^\d+-[\w-]{22}$/)
      expect(media.attributes).toMatchObject({ popName: 'shout', popType: 'image' })
      expect(media.children).toEqual([
        { name: 'param', attributes: { name: 'logContentId', value: id }, children: [], text: '' },
      ])
    }
    // the house card is not logged, and fills each gap in one stretch
    for (const { media } of gaps) {
      expect(media.attributes.src).toContain('/house-card.png')
      expect(media.children).toEqual([])
      expect(media.attributes).not.toHaveProperty('popCustomId')
    }
    const all = [...plays, ...gaps].sort((a, b) => a.begin - b.begin)
    let at = w.fromEpochMs
    for (const { begin, end } of all) {
      expect(begin).toBe(at) // end to end: the window is covered with no gap
      at = end
    }
    expect(at).toBe(w.toEpochMs)
    expect(gaps.length).toBeLessThanOrEqual(plays.length + 1)
    const schedule = await scheduleOf(`?fromEpochMs=${w.fromEpochMs}&toEpochMs=${w.toEpochMs}`)
    expect(plays.map((p) => p.begin)).toEqual(schedule.items.map((i) => i.startEpochMs))
    expect(plays).toHaveLength(8)
    // each file prefetched once, ahead of its first play (IAdea loads media on first use)
    const prefetched = only(par.children, 'seq').children
    expect(prefetched.every((e) => e.name === 'prefetch')).toBe(true)
    expect(new Set(prefetched.map((e) => e.attributes.src))).toEqual(
      new Set(all.map((p) => p.media.attributes.src)),
    )
    expect(prefetched).toHaveLength(new Set(all.map((p) => p.media.attributes.src)).size)
    // without a token: 401, like the JSON schedule
    const anonymous = await fetch(`${server.url}/api/v1/player/${DEVICE}/schedule.smil`)
    expect(anonymous.status).toBe(401)
  })

  it('keeps the SMIL playlist’s ETag and Last-Modified while it is unchanged, hours on, answers HEAD and 304', async () => {
    // the playlist's own window starts at 00:00 or 12:00 UTC: the same document for hours
    const half = Math.floor(Date.now() / 43_200_000) * 43_200_000
    clock = half + 10 * 60_000
    const first = await smilOf('')
    const etag = first.headers.get('etag') ?? ''
    const lastModified = first.headers.get('last-modified') ?? ''
    expect(etag).toMatch(/^"[\w-]{20,}"$/)
    expect(new Date(lastModified).toUTCString()).toBe(lastModified)
    const text = await first.text()
    expect(first.headers.get('content-length')).toBe(String(Buffer.byteLength(text)))

    // hours later, past the hour the window started at before: the same document, the same validators
    clock = half + 5 * 3_600_000 + 50 * 60_000
    const again = await smilOf('')
    expect(await again.text()).toBe(text)
    expect([again.headers.get('etag'), again.headers.get('last-modified')]).toEqual([
      etag,
      lastModified,
    ])

    const head = await smilOf('', { method: 'HEAD' })
    expect(head.status).toBe(200)
    expect(await head.text()).toBe('')
    expect(head.headers.get('etag')).toBe(etag)
    expect(head.headers.get('last-modified')).toBe(lastModified)
    expect(head.headers.get('content-length')).toBe(String(Buffer.byteLength(text)))

    // conditional requests as players send them (garlic-player: its stored ETag without quotes)
    const conditional: Record<string, string>[] = [
      { 'if-none-match': etag },
      { 'if-none-match': etag.replaceAll('"', '') },
      { 'if-modified-since': lastModified },
    ]
    for (const headers of conditional) {
      const res = await smilOf('', { headers })
      expect(res.status, JSON.stringify(headers)).toBe(304)
      expect(res.headers.get('etag')).toBe(etag)
    }
    expect((await smilOf('', { headers: { 'if-none-match': '"other"' } })).status).toBe(200)

    // a shout sold in the window changes the document: a new ETag, a later Last-Modified
    clock = null
    const files = (xml: string) => xml.split(' popCustomId=').length - 1
    const before = files(await (await smilOf('')).text())
    const soon = slotNumberAt(event, PARIS, Date.now() + 6 * 3_600_000)
    if (soon === null) throw new Error('the live event has no slot in 6 hours')
    const sold = await buy([soon])
    expect(sold.state).toBe('Confirmed')
    const changed = await smilOf('')
    expect(changed.headers.get('etag')).not.toBe(etag)
    expect(Date.parse(changed.headers.get('last-modified') ?? '')).toBeGreaterThan(
      Date.parse(lastModified),
    )
    expect(files(await changed.text())).toBe(before + 4)
    expect((await smilOf('', { headers: { 'if-none-match': etag } })).status).toBe(200)
  })

  it('keeps serving the document it published while a sold play is on screen, and the changed one once the play has ended', async () => {
    // signageOS reloads a changed document at once and shows the play on screen again from its
    // beginning, past its end: a change waits for the play to end
    const day = await scheduleOf(
      `?fromEpochMs=${dayWindow().fromEpochMs}&toEpochMs=${dayWindow().toEpochMs}`,
    )
    const play = day.items[0]
    if (!play) throw new Error('no sold play on day 2')
    const validators = (res: Response) => [
      res.headers.get('etag'),
      res.headers.get('last-modified'),
    ]
    clock = play.startEpochMs - 60_000
    const before = await smilOf('')
    const published = validators(before)
    const text = await before.text()

    // a shout sold elsewhere in the window while the play is about to begin, then on screen
    clock = play.startEpochMs - 30_000
    expect((await buy(daySlots(2, 80, 1))).state).toBe('Confirmed')
    for (const at of [
      play.startEpochMs - 5_000,
      play.startEpochMs + 5_000,
      play.endEpochMs - 1_000,
    ]) {
      clock = at
      const during = await smilOf('')
      expect(validators(during), new Date(at).toISOString()).toEqual(published)
      expect(await during.text()).toBe(text)
      const head = await smilOf('', { method: 'HEAD' })
      expect(validators(head)).toEqual(published)
      expect((await smilOf('', { headers: { 'if-none-match': published[0] ?? '' } })).status).toBe(
        304,
      )
    }

    // the play has ended: the new document, a later Last-Modified, the new shout's plays in it
    clock = play.endEpochMs + 5_000
    const after = await smilOf('')
    const [etag, lastModified] = validators(after)
    expect(etag).not.toBe(published[0])
    expect(Date.parse(lastModified ?? '')).toBeGreaterThan(Date.parse(published[1] ?? ''))
    const plays = (xml: string) => xml.split(' popCustomId=').length - 1
    expect(plays(await after.text())).toBe(plays(text) + 4)
    // what the billboard fetches carries its own token; the server never stores it
    expect(text).toContain(encodeURIComponent(token))
    const [stored] = await server.deps.database.query(
      sql<{ body: string }>`select body from smil_feeds where device_id = ${DEVICE}`,
    )
    expect(stored?.body).not.toContain(token)
    clock = null
  })
})
