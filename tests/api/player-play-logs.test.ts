import { randomUUID } from 'node:crypto'
import { XMLParser } from 'fast-xml-parser'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { billboards, player } from '../../src/contract/index.ts'
import { slotStartEpochMs } from '../../src/domain/index.ts'
import { sql } from '../../src/server/platform/db/sql.ts'
import { createLogger } from '../../src/server/platform/log.ts'
import { refusedPlays } from '../../src/server/player/repo.ts'
import {
  answerOf,
  BACKENDS,
  boughtOrder,
  type Client,
  client,
  daySlots,
  eventOf,
  generateContent,
  LIVE,
  orderSummaryOf,
  replyOf,
  startTestServer,
  type TestServer,
} from './helpers.ts'
import { signedInOperator } from './ops-helpers.ts'

// A SMIL billboard's proofs of play come from its player's own play logs (api-v1 "Player"):
// garlic-player's and IAdea's A-SMIL PlaylogCollection (XML PUT to the playlist's subscription
// action), signageOS's proof-of-play reports (JSON POST to the playlist's <meta log> endpoint). Each
// becomes the proof our web player would post, under the same rules.

const DEVICE = 'paris-opera-1'
const PARIS = 'Europe/Paris'

/** An instant as garlic writes it: the billboard's local time with its offset (Paris in May: +02:00). */
const local = (epochMs: number) =>
  `${new Date(epochMs + 2 * 3_600_000).toISOString().slice(0, 19)}+02:00`

const played = (id: string, startMs: number, endMs: number) =>
  `<contentPlayed><contentId>${id}</contentId><startTime>${local(startMs)}</startTime><endTime>${local(endMs)}</endTime></contentPlayed>`
const garlicReport = (plays: string) =>
  `<?xml version="1.0" encoding="UTF-8"?>\n<report xmlns="http://schemas.garlic-player.com/gapi-1.0"><date>2027-05-07T08:01:00Z</date><version>1.0</version><player id="a1b2"><contentPlayLog>${plays}</contentPlayLog></player></report>`
const iadeaReport = (plays: string) =>
  `<?xml version="1.0" encoding="UTF-8"?><report xmlns="http://schemas.adfotain.org/adapi-1.0"><player id="00-11"><contentPlayLog>${plays}</contentPlayLog></player></report>`

describe.each(BACKENDS)('SMIL players’ play logs on %s', (backend) => {
  let server: TestServer
  let api: Client
  let token: string
  let event: Awaited<ReturnType<typeof eventOf>>
  let order: { guid: string; slots: number[]; state: string }
  const logs: string[] = []
  let clock = Date.now()
  /** The sold plays as the playlist names them: logged id, start and end. */
  let plays: { id: string; startEpochMs: number; endEpochMs: number }[] = []
  let action = ''
  let popEndpoint = ''

  beforeAll(async () => {
    server = await startTestServer(backend, {
      now: () => clock,
      log: createLogger('info', {}, (line) => logs.push(line)),
    })
    api = client(server.url)
    const content = await generateContent(api)
    const linked = await server.deps.player.link(DEVICE)
    if (!linked.ok) throw new Error('link failed')
    token = linked.value.token
    event = await eventOf(api, LIVE)
    order = await boughtOrder(api, { slots: daySlots(2, 40, 2), content })
    expect(order.state).toBe('Confirmed')

    const from = slotStartEpochMs(event, PARIS, order.slots[0] as number)
    const to = from + 2 * event.slotWidthMS
    const res = await fetch(
      `${server.url}/api/v1/player/${DEVICE}/schedule.smil?token=${token}&fromEpochMs=${from}&toEpochMs=${to}`,
    )
    const smil = new XMLParser({ ignoreAttributes: false, attributeNamePrefix: '' }).parse(
      await res.text(),
    )
    action = smil.smil.head.metadata['x-server'].subscriptionList.subscription.action
    popEndpoint = smil.smil.head.meta.find((m: { log?: string }) => m.log === 'true').endpoint
    // the sold plays' media, in time order (the classes rank the latest first)
    const sold = [smil.smil.body.par.excl.priorityClass]
      .flat()
      .map((c: { seq: { img: Record<string, string> } }) => c.seq)
      .filter((seq: { img: Record<string, string> }) => seq.img.popCustomId !== undefined)
      .reverse()
    const schedule = answerOf(
      player.schedule,
      await api.get(`/player/${DEVICE}/schedule?fromEpochMs=${from}&toEpochMs=${to}`, {
        authorization: `Bearer ${token}`,
      }),
    )
    plays = schedule.items.map((item, i) => ({
      id: sold[i]?.img.popCustomId as string,
      startEpochMs: item.startEpochMs,
      endEpochMs: item.endEpochMs,
    }))
    expect(plays).toHaveLength(8)
  })
  afterAll(async () => {
    await server?.stop()
  })

  const play = (i: number) => plays[i] as (typeof plays)[number]
  const put = (body: string, file = `playlog-${randomUUID()}.xml`, at = action) =>
    fetch(`${at}/${file}`, {
      method: 'PUT',
      headers: { 'content-type': 'text/xml' },
      body,
    })
  const postPop = (reports: unknown[], at = popEndpoint) =>
    fetch(at, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify(reports),
    })
  const proofs = async () => (await orderSummaryOf(api, LIVE, order.guid)).plays
  /** A play log's answer, parsed with the contract. */
  const logged = async (res: Response) => answerOf(player.playLog, await replyOf(res))
  const reported = async (res: Response) => answerOf(player.popReports, await replyOf(res))

  it("keeps garlic's logged plays as proofs once, however often it sends the file again", async () => {
    clock = play(1).endEpochMs + 60_000
    const body = garlicReport(
      played(play(0).id, play(0).startEpochMs + 1000, play(0).endEpochMs) +
        played(play(1).id, play(1).startEpochMs + 2000, play(1).endEpochMs + 1000),
    )
    const file = `playlog-${randomUUID()}.xml`
    const first = await put(body, file)
    expect(await logged(first)).toEqual({ accepted: 2, duplicates: 0, refused: 0, failed: 0 })
    // garlic sends a file until it gets a 2xx: the same file, and the same plays in another
    for (const again of [await put(body, file), await put(body)]) {
      expect(await logged(again)).toEqual({ accepted: 0, duplicates: 2, refused: 0, failed: 0 })
    }
    expect(await proofs()).toEqual([
      expect.objectContaining({ slotNumber: order.slots[0], playIndex: 0 }),
      expect.objectContaining({ slotNumber: order.slots[0], playIndex: 1 }),
    ])
    expect((await proofs())[0]?.startedAtEpochMs).toBe(play(0).startEpochMs + 1000)
  })

  it("keeps an IAdea player's playerlog- file the same way", async () => {
    clock = play(2).endEpochMs + 60_000
    const res = await put(
      iadeaReport(played(play(2).id, play(2).startEpochMs, play(2).endEpochMs)),
      `playerlog-${randomUUID()}.xml`,
    )
    expect(await logged(res)).toEqual({ accepted: 1, duplicates: 0, refused: 0, failed: 0 })
  })

  it('refuses and counts a play no one scheduled, one not begun yet and a time without its offset', async () => {
    clock = play(3).startEpochMs - 10 * 60_000
    const before = await refusedPlays(server.deps.database, DEVICE)
    const unknown = `${Math.floor(play(3).startEpochMs / 1000)}-AAAAAAAAAAAAAAAAAAAAAA`
    const zoneless = `<contentPlayed><contentId>${play(3).id}</contentId><startTime>2027-05-07T10:00:00</startTime><endTime>2027-05-07T10:00:15</endTime></contentPlayed>`
    const res = await put(
      garlicReport(
        played(unknown, play(3).startEpochMs, play(3).endEpochMs) +
          played(play(3).id, play(3).startEpochMs, play(3).endEpochMs) +
          zoneless,
      ),
    )
    expect(await logged(res)).toEqual({ accepted: 0, duplicates: 0, refused: 3, failed: 0 })
    expect(await refusedPlays(server.deps.database, DEVICE)).toBe(before + 3)
  })

  it('answers 400 to a body that is not a play log, and 401 to a wrong token in the path', async () => {
    expect((await put('<!DOCTYPE x [<!ENTITY a "b">]><report>&a;</report>')).status).toBe(400)
    expect((await put('{"plays": []}')).status).toBe(400)
    expect((await put(garlicReport(''), 'passwd')).status).toBe(400)
    const wrong = action.replace(token, 'not-the-token')
    expect((await put(garlicReport(''), undefined, wrong)).status).toBe(401)
  })

  it("keeps signageOS's successful playbacks once, batched and repeated; a failed playback is no proof", async () => {
    clock = play(7).endEpochMs + 60_000
    const report = (id: string, endMs: number, success = true) => ({
      name: 'media-playback',
      playbackSuccess: success,
      ...(success ? {} : { errorMessage: 'video failed' }),
      customId: id,
      type: 'image',
      fileName: 'x.png',
      recordedAt: new Date(endMs).toISOString(),
    })
    const batch = [
      report(play(4).id, play(4).endEpochMs + 400),
      report(play(4).id, play(4).endEpochMs + 400),
      report(play(5).id, play(5).endEpochMs, false),
      { name: 'media-download', customId: play(6).id, recordedAt: new Date(clock).toISOString() },
      report(
        `${Math.floor(play(6).startEpochMs / 1000)}-BBBBBBBBBBBBBBBBBBBBBB`,
        play(6).endEpochMs,
      ),
    ]
    const preflight = await fetch(popEndpoint, {
      method: 'OPTIONS',
      headers: {
        origin: 'file://',
        'access-control-request-method': 'POST',
        'access-control-request-headers': 'content-type',
      },
    })
    expect(preflight.status).toBe(204)
    expect(preflight.headers.get('access-control-allow-origin')).toBe('*')
    expect(preflight.headers.get('access-control-allow-headers')).toMatch(/content-type/i)
    const first = await postPop(batch)
    expect(first.headers.get('access-control-allow-origin')).toBe('*')
    expect(await reported(first)).toEqual({ accepted: 1, duplicates: 1, refused: 1, failed: 1 })
    // its batch of unsent reports comes again ten minutes later
    expect(await reported(await postPop(batch))).toEqual({
      accepted: 0,
      duplicates: 2,
      refused: 1,
      failed: 1,
    })
    const proven = (await proofs()).find(
      (p) => p.slotNumber === order.slots[1] && p.playIndex === 0,
    )
    // signageOS says when a playback ended: its start is the play's length before
    expect(proven?.startedAtEpochMs).toBe(play(4).startEpochMs + 400)
    // the preflight is this endpoint's only
    const other = await fetch(`${server.url}/api/v1/player/${DEVICE}/plays`, { method: 'OPTIONS' })
    expect(other.headers.get('access-control-allow-origin')).toBeNull()
  })

  it('shows in the console which player the billboard runs and when its last play log came, as its heartbeat', async () => {
    const reviewer = await signedInOperator(server, 'reviewer')
    const health = answerOf(billboards.health, await reviewer.api.get('/ops/billboard-health'))
    const board = health.billboards.find((b) => b.deviceId === DEVICE)
    expect(board).toMatchObject({
      state: 'playing',
      source: 'smil',
      player: 'signageos',
      lastPlayLogEpochMs: clock,
      lastSeenEpochMs: clock,
    })
  })

  it('answers 200 to a play log it read when the billboard has no schedule, its plays refused', async () => {
    // a billboard linked to a player but in no event of the catalogue: it has no schedule at all,
    // and garlic would send again forever a file answered otherwise
    const unlisted = 'paris-unlisted-1'
    await server.deps.database.query(sql`
      insert into devices (device_id, location, city, state_abbr, country, time_zone_id, lat, lng,
        viewing_area_coordinates, traffic_direction, screens, image_url, street_view_url,
        content_width, content_height)
      select ${unlisted}, location, city, state_abbr, country, time_zone_id, lat, lng,
        viewing_area_coordinates, traffic_direction, screens, image_url, street_view_url,
        content_width, content_height
      from devices where device_id = ${DEVICE}`)
    const linked = await server.deps.player.link(unlisted)
    if (!linked.ok) throw new Error('link failed')
    const at = action.replace(DEVICE, unlisted).replace(token, linked.value.token)
    const res = await put(
      garlicReport(played(play(0).id, play(0).startEpochMs, play(0).endEpochMs)),
      undefined,
      at,
    )
    expect(await logged(res)).toEqual({ accepted: 0, duplicates: 0, refused: 1, failed: 0 })
  })

  it('reads plays of two spans of a day in one body at most: a play beyond is refused', async () => {
    const third = play(3)
    const hoursEarlier = (hours: number) =>
      `${Math.floor((third.startEpochMs - hours * 3_600_000) / 1000)}-CCCCCCCCCCCCCCCCCCCCCC`
    const span = (id: string) => played(id, third.startEpochMs, third.endEpochMs)
    const spread = await put(
      garlicReport(span(hoursEarlier(50)) + span(hoursEarlier(25)) + span(third.id)),
    )
    expect(await logged(spread)).toEqual({ accepted: 0, duplicates: 0, refused: 3, failed: 0 })
    const alone = await put(garlicReport(span(third.id)))
    expect(await logged(alone)).toEqual({ accepted: 1, duplicates: 0, refused: 0, failed: 0 })
  })

  it('never writes the token to a log line, from the path or the query', () => {
    expect(logs.length).toBeGreaterThan(0)
    expect(logs.filter((line) => line.includes(token))).toEqual([])
    expect(logs.some((line) => line.includes('/play-logs/[redacted]/playlog-'))).toBe(true)
  })
})
