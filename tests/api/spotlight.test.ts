import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { spotlight } from '../../src/contract/index.ts'
import { englishOf } from '../../src/contract/problems.ts'
import {
  availabilityWindow,
  eventWindowEpochMs,
  isPurchasable,
  slotStartEpochMs,
  slotsPerDevice,
} from '../../src/domain/index.ts'
import {
  answerOf,
  type Client,
  client,
  DAY_MS,
  daySlots,
  eventOf,
  generateContent,
  LIVE,
  LIVE_UK,
  LIVE_US,
  orderBody,
  placeOrder,
  rawExchange,
  replyOf,
  savedCard,
  startTestServer,
  type TestServer,
} from './helpers.ts'

// Spotlight: events, paged devices, slot search with the cut-off, promo lookup.
let server: TestServer
let api: Client

beforeAll(async () => {
  server = await startTestServer('pglite', { env: { PROMO_LOOKUPS_PER_MINUTE: '40' } })
  api = client(server.url)
})
afterAll(async () => {
  await server?.stop()
})

describe('events', () => {
  it('answers the live event, starting on the import day and running 14 days', async () => {
    const event = answerOf(spotlight.event, await api.get(`/spotlight/events/${LIVE}`))
    const today = new Date().toISOString().slice(0, 10)
    expect(event).toMatchObject({
      slug: LIVE,
      name: 'Share the Love',
      startDateHourLocalInclusive: `${today}_00`,
      slotWidthMS: 900_000,
      valueCentsPerSlot: 4000,
      // the demo's Paris billboards sell a euro event
      currency: 'EUR',
      branded: false,
      sponsorName: null,
      minPresaleSlotEpochMs: null,
    })
    expect(slotsPerDevice(event, 'Europe/Paris')).toBe(14 * 96)
  })

  it('has the special events of the spec; past ones stay past', async () => {
    for (const slug of [
      'share-your-dragon-france',
      'share-your-dragon-uk',
      'share-your-dragon-germany',
    ]) {
      const event = answerOf(spotlight.event, await api.get(`/spotlight/events/${slug}`))
      expect(event.branded).toBe(true)
    }
    for (const slug of ['test-wow-2022', 'activision-test-2022']) {
      const event = answerOf(spotlight.event, await api.get(`/spotlight/events/${slug}`))
      expect(eventWindowEpochMs(event, 'America/New_York').endEpochMs).toBeLessThan(Date.now())
    }
    const live = answerOf(spotlight.liveEvents, await api.get('/spotlight/live-events'))
    const slugs = live.events.map((e) => e.slug)
    expect(slugs).toContain(LIVE)
    expect(slugs).not.toContain('test-wow-2022')
  })

  it('answers 404 Event not found for an unknown slug', async () => {
    expect(await api.get('/spotlight/events/no-such-event')).toMatchObject({
      status: 404,
      body: { errors: [englishOf({ code: 'event_not_found' })] },
    })
  })
})

describe('devices', () => {
  const devicesOf = async (slug: string, query = '') =>
    answerOf(spotlight.devices, await api.get(`/spotlight/events/${slug}/devices${query}`))

  it('pages by 200 from offset 0 by id ascending by default', async () => {
    const page = await devicesOf(LIVE)
    expect(page.pagination).toEqual({
      limit: 200,
      offset: 0,
      orderBy: 'id',
      sortDirection: 'asc',
      total: 5,
    })
    const ids = page.devices.map((d) => d.deviceId)
    expect(ids).toEqual([...ids].sort())
    // a euro event: the billboards of the euro's cities only
    expect(new Set(page.devices.map((d) => d.city))).toEqual(new Set(['Paris', 'Berlin']))
    expect(page.devices.filter((d) => d.screens === 2).length).toBeGreaterThan(0)
    const paris = page.devices.find((d) => d.deviceId === 'paris-opera-1')
    expect(paris).toMatchObject({
      timeZoneId: 'Europe/Paris',
      trafficDirection: 'North East',
      country: 'France',
      // read from the catalogue's words, for the shop to name the country in the reader's language
      countryCode: 'FR',
    })
    expect(page.devices.find((d) => d.city === 'Berlin')?.countryCode).toBe('DE')
  })

  it('shows the sold-out and the not-available billboards of the London and New York runs', async () => {
    const london = await devicesOf(LIVE_UK)
    expect(new Set(london.devices.map((d) => d.city))).toEqual(new Set(['London']))
    expect(london.devices.find((d) => d.deviceId === 'london-kings-cross')?.soldOut).toBe(true)
    const newYork = await devicesOf(LIVE_US)
    expect(new Set(newYork.devices.map((d) => d.city))).toEqual(new Set(['New York']))
    expect(
      newYork.devices.find((d) => d.deviceId === 'nyc-union-square')?.unavailableForEvent,
    ).toBe(true)
  })

  it('follows limit, offset, orderBy and sortDirection', async () => {
    const page = await devicesOf(LIVE, '?limit=3&offset=3&orderBy=city&sortDirection=desc')
    expect(page.devices).toHaveLength(2)
    expect(page.pagination).toEqual({
      limit: 3,
      offset: 3,
      orderBy: 'city',
      sortDirection: 'desc',
      total: 5,
    })
    const all = await devicesOf(LIVE, '?orderBy=city&sortDirection=desc')
    expect(page.devices.map((d) => d.deviceId)).toEqual(
      all.devices.slice(3, 5).map((d) => d.deviceId),
    )
    const cities = all.devices.map((d) => d.city)
    expect(cities).toEqual([...cities].sort().reverse())
  })

  it('refuses bad paging with 400 and an unknown event with 404', async () => {
    for (const q of [
      'limit=0',
      'limit=201',
      'offset=-1',
      'limit=abc',
      'orderBy=price',
      'sortDirection=up',
    ]) {
      const res = await api.get<{ errors: string[] }>(`/spotlight/events/${LIVE}/devices?${q}`)
      expect(res.status, q).toBe(400)
      expect(res.body.errors.length).toBeGreaterThan(0)
    }
    expect((await api.get('/spotlight/events/nothing/devices')).status).toBe(404)
  })
})

describe('slot search', () => {
  const search = (body: Record<string, unknown>) => api.post('/spotlight/slots/search', body)
  /** A search's answer, parsed with the contract. */
  const found = async (body: Record<string, unknown>) =>
    answerOf(spotlight.slotSearch, await search(body))

  it('lists the open slots of the whole event in the device zone, 5 hours ahead at the earliest', async () => {
    const now = Date.now()
    const res = await found({
      deviceId: 'nyc-times-square-1',
      eventSlug: LIVE_US,
      startEpochMs: now - 2 * DAY_MS,
      endEpochMs: now + 30 * DAY_MS,
    })
    const { event, openSlots, timeZoneId } = res
    expect(timeZoneId).toBe('America/New_York')
    expect(res.valueCentsPerSlot).toBe(4000)
    const total = slotsPerDevice(event, timeZoneId)
    expect(openSlots.at(-1)).toBe(total - 1)
    // The server read its clock between `now` and `after`: the first open slot could be bought at
    // `now` already, the one before it can no longer be bought at `after`.
    const after = Date.now()
    const first = openSlots[0] as number
    expect(isPurchasable(slotStartEpochMs(event, timeZoneId, first), now)).toBe(true)
    if (first > 0) {
      expect(isPurchasable(slotStartEpochMs(event, timeZoneId, first - 1), after)).toBe(false)
    }
    expect(openSlots).toEqual(Array.from({ length: total - first }, (_, i) => first + i))
    const window = availabilityWindow(event, timeZoneId, after)
    expect(res.maxAvailableSlotEpochMs).toBe(window.maxAvailableSlotEpochMs)
    expect(res.minAvailableSlotEpochMs).toBe(slotStartEpochMs(event, timeZoneId, first))
  })

  it('keeps to the requested range and leaves out sold slots', async () => {
    const content = await generateContent(api, 'berlin-alexanderplatz')
    const sold = daySlots(3, 10, 2)
    const placed = await placeOrder(
      api,
      orderBody({ slots: sold, content, checkout: await savedCard(api) }),
    )
    expect(placed.status).toBe(201)
    const event = await eventOf(api, LIVE)
    const from = slotStartEpochMs(event, 'Europe/Berlin', 3 * 96)
    const res = await found({
      deviceId: 'berlin-alexanderplatz',
      eventSlug: LIVE,
      startEpochMs: from,
      endEpochMs: from + DAY_MS,
    })
    const expected = daySlots(3, 0, 96).filter((s) => !sold.includes(s))
    expect(res.openSlots).toEqual(expected)
  })

  it('answers a phone the same open slots gzipped, and its next search leaves out a slot just sold', async () => {
    const event = await eventOf(api, LIVE)
    const from = slotStartEpochMs(event, 'Europe/Paris', 4 * 96)
    const body = JSON.stringify({
      deviceId: 'paris-opera-1',
      eventSlug: LIVE,
      startEpochMs: from,
      endEpochMs: from + 3 * DAY_MS, // large enough to be worth compressing
    })
    const phone = async () => {
      const res = await fetch(`${server.url}/api/v1/spotlight/slots/search`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', 'accept-encoding': 'gzip' },
        body,
      })
      expect(res.status).toBe(200)
      expect(res.headers.get('content-encoding')).toBe('gzip')
      return answerOf(spotlight.slotSearch, await replyOf(res)).openSlots
    }
    const plain = (await found(JSON.parse(body) as Record<string, unknown>)).openSlots
    expect(plain).toEqual(daySlots(4, 0, 3 * 96))
    expect(await phone()).toEqual(plain)
    expect(await phone()).toEqual(plain)
    const content = await generateContent(api, 'paris-opera-1')
    const sold = daySlots(4, 40, 3)
    const placed = await placeOrder(
      api,
      orderBody({
        deviceId: 'paris-opera-1',
        slots: sold,
        content,
        checkout: await savedCard(api),
      }),
    )
    expect(placed.status).toBe(201)
    expect(await phone()).toEqual(plain.filter((slot) => !sold.includes(slot)))
  })

  it('finds the same slots whether the search arrives whole, in pieces, chunked or after a byte-order mark', async () => {
    const now = Date.now()
    const body = JSON.stringify({
      deviceId: 'paris-opera-1',
      eventSlug: LIVE,
      startEpochMs: now,
      endEpochMs: now + 3 * DAY_MS,
    })
    const expected = await found(JSON.parse(body) as Record<string, unknown>)
    expect(expected.openSlots.length).toBeGreaterThan(0)
    const head = (framing: string) =>
      `POST /api/v1/spotlight/slots/search HTTP/1.1\r\nHost: 127.0.0.1\r\ncontent-type: application/json\r\nconnection: close\r\n${framing}\r\n`
    const half = Math.floor(body.length / 2)
    const sent = {
      whole: [head(`content-length: ${body.length}\r\n`) + body],
      'after a byte-order mark': [`${head(`content-length: ${body.length + 3}\r\n`)}\uFEFF${body}`],
      'in two pieces': [
        head(`content-length: ${body.length}\r\n`) + body.slice(0, half),
        body.slice(half),
      ],
      chunked: [
        `${head('transfer-encoding: chunked\r\n')}${half.toString(16)}\r\n${body.slice(0, half)}\r\n`,
        `${(body.length - half).toString(16)}\r\n${body.slice(half)}\r\n0\r\n\r\n`,
      ],
    }
    for (const [how, pieces] of Object.entries(sent)) {
      const answer = await rawExchange(server.url, pieces)
      expect(answer.status, how).toBe(200)
      const parsed = answerOf(spotlight.slotSearch, { ...answer, body: JSON.parse(answer.body) })
      expect(parsed.openSlots, how).toEqual(expected.openSlots)
    }
  })

  it('offers nothing on a sold-out billboard, one unavailable for the event, or a past event', async () => {
    const now = Date.now()
    const range = { startEpochMs: now, endEpochMs: now + 20 * DAY_MS }
    expect(
      (await found({ deviceId: 'london-kings-cross', eventSlug: LIVE_UK, ...range })).openSlots,
    ).toEqual([])
    expect(
      (await found({ deviceId: 'nyc-union-square', eventSlug: LIVE_US, ...range })).openSlots,
    ).toEqual([])
    const past = await found({
      deviceId: 'nyc-times-square-1',
      eventSlug: 'test-wow-2022',
      startEpochMs: Date.UTC(2022, 10, 1),
      endEpochMs: Date.UTC(2022, 11, 1),
    })
    expect(past.openSlots).toEqual([])
    expect(past.minAvailableSlotEpochMs).toBeNull()
  })

  it('answers 404 for an unknown event or device and 400 for a bad range', async () => {
    const now = Date.now()
    expect(
      await search({
        deviceId: 'paris-opera-1',
        eventSlug: 'nothing',
        startEpochMs: now,
        endEpochMs: now + 1,
      }),
    ).toMatchObject({ status: 404, body: { errors: [englishOf({ code: 'event_not_found' })] } })
    expect(
      await search({
        deviceId: 'nowhere',
        eventSlug: LIVE,
        startEpochMs: now,
        endEpochMs: now + 1,
      }),
    ).toMatchObject({ status: 404, body: { errors: [englishOf({ code: 'device_not_found' })] } })
    // a billboard that exists but is not part of this event
    expect(
      (
        await search({
          deviceId: 'paris-opera-1',
          eventSlug: 'share-your-dragon-uk',
          startEpochMs: now,
          endEpochMs: now + 1,
        })
      ).status,
    ).toBe(404)
    const bad = await search({
      deviceId: 'paris-opera-1',
      eventSlug: LIVE,
      startEpochMs: now,
      endEpochMs: now,
    })
    expect(bad.status).toBe(400)
    expect(JSON.stringify(bad.body)).toContain(englishOf({ code: 'slot_range_invalid' }))
  })
})

describe('promo codes', () => {
  const lookup = (code: string, eventSlug = LIVE, email?: string) =>
    api.get(
      `/spotlight/promos/code/${encodeURIComponent(code)}?eventSlug=${eventSlug}${email ? `&email=${encodeURIComponent(email)}` : ''}`,
    )

  it('answers fixed and percent promos, whatever the case typed', async () => {
    expect(answerOf(spotlight.promo, await lookup('LOVE10'))).toMatchObject({
      promoCode: 'LOVE10',
      percentOffTotal: 10,
    })
    expect(answerOf(spotlight.promo, await lookup('love5off'))).toMatchObject({
      promoCode: 'LOVE5OFF',
      centsOffTotal: 500,
    })
    expect((await lookup('LOVE10')).body).not.toHaveProperty('centsOffTotal')
  })

  it('gives the spec messages: invalid, wrong event, once per customer', async () => {
    expect(await lookup('NOPE')).toMatchObject({
      status: 404,
      body: { errors: [englishOf({ code: 'promo_invalid' })] },
    })
    expect(await lookup('bad code!')).toMatchObject({
      status: 404,
      body: { errors: [englishOf({ code: 'promo_invalid' })] },
    })
    expect(await lookup('DRAGONFR')).toMatchObject({
      status: 422,
      body: { errors: [englishOf({ code: 'promo_wrong_event' })] },
    })
    expect(
      answerOf(
        spotlight.promo,
        await lookup('DRAGONFR', 'share-your-dragon-france', 'new@example.com'),
      ),
    ).toMatchObject({ promoCode: 'DRAGONFR', percentOffTotal: 20 })
    // used once by this e-mail: refused for the same e-mail only
    const content = await generateContent(api, 'paris-opera-1', 'share-your-dragon-france')
    const placed = await placeOrder(
      api,
      orderBody({
        slots: daySlots(3, 50, 1),
        content,
        checkout: await savedCard(api),
        promoCode: 'DRAGONFR',
        email: 'fan@example.com',
      }),
    )
    expect(placed.status).toBe(201)
    expect(await lookup('DRAGONFR', 'share-your-dragon-france', 'Fan@Example.com')).toMatchObject({
      status: 422,
      body: { errors: [englishOf({ code: 'promo_once_per_customer' })] },
    })
    expect((await lookup('DRAGONFR', 'share-your-dragon-france', 'other@example.com')).status).toBe(
      200,
    )
    expect((await api.get('/spotlight/promos/code/LOVE10')).status).toBe(400)
  })

  // Last: it spends this client's lookup budget.
  it('limits lookups per client address with a 429 and an errors body', async () => {
    const replies = []
    for (let i = 0; i < 45; i++) replies.push(await lookup(`GUESS${i}`))
    const limited = replies.filter((r) => r.status === 429)
    expect(limited.length).toBeGreaterThan(0)
    expect(limited[0]?.body).toEqual({
      errors: [englishOf({ code: 'promo_too_many_lookups' })],
      codes: ['promo_too_many_lookups'],
    })
    expect(Number(limited[0]?.headers.get('retry-after'))).toBeGreaterThan(0)
    // other endpoints are not limited
    expect((await api.get(`/spotlight/events/${LIVE}`)).status).toBe(200)
  })
})
