import sharp from 'sharp'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { spotlight } from '../../src/contract/catalogue.ts'
import { order as orderEndpoints } from '../../src/contract/order.ts'
import { player } from '../../src/contract/player.ts'
import { share as shareEndpoints } from '../../src/contract/share.ts'
import { sql } from '../../src/server/platform/db/sql.ts'
import {
  answerOf,
  BACKENDS,
  boughtOrder,
  type Client,
  client,
  DAY_MS,
  daySlots,
  generateContent,
  LIVE,
  proofsOfSlot,
  startTestServer,
  type TestServer,
} from './helpers.ts'
import { clientWith, signedInOperator } from './ops-helpers.ts'

// Keepsake pages: the shopper shares a confirmed order from its page as /s/{shareId}, a page anyone
// with the link reads without JavaScript, with its picture (the shout drawn into the billboard's
// photo) for link previews; revoked, or once the order's personal data is forgotten, it is gone.
// Nothing on it names the shopper's contact or the order.

const DEVICE = 'paris-opera-1'
const PARIS = 'Europe/Paris'

describe.each(BACKENDS)('keepsake pages on %s', (backend) => {
  let server: TestServer
  let api: Client
  let shop: Client
  let later = 0

  beforeAll(async () => {
    server = await startTestServer(backend, {
      env: { ORDER_CONTENT_TTL_DAYS: '30' },
      now: () => Date.now() + later,
    })
    api = client(server.url)
    // the shop's own pages: a change to an order's share must come from them
    shop = clientWith(server.url, { origin: server.url })
  })
  afterAll(async () => {
    await server?.stop()
  })

  const sharePath = (guid: string) => `/order/events/${LIVE}/orders/${guid}/share`
  const page = (path: string, headers: Record<string, string> = {}) =>
    fetch(new URL(path, server.url), { headers })

  async function buy(day: number, from: number, locale: 'en' | 'fr' | 'de' = 'en') {
    const content = await generateContent(api)
    const order = await boughtOrder(api, {
      slots: daySlots(day, from, 1),
      content,
      locale,
      email: 'oma.keepsake@example.com',
    })
    expect(order.state).toBe('Confirmed')
    return answerOf(
      orderEndpoints.summary,
      await api.get(`/order/events/${LIVE}/orders/${order.guid}`),
    )
  }

  async function share(guid: string, locale: 'en' | 'fr' | 'de' = 'en') {
    const made = answerOf(shareEndpoints.create, await shop.post(sharePath(guid), { locale }))
    return made
  }

  it('a shared order is a page anyone reads: the shout on the billboard, the place, the event and when it plays', async () => {
    const order = await buy(2, 40)
    const made = await share(order.guid)
    expect(made.shareId).toMatch(/^[A-Za-z0-9_-]{22}$/)
    expect(made).toMatchObject({ path: `/s/${made.shareId}`, locale: 'en' })
    // sharing again answers the same page; the order's page finds it
    expect((await share(order.guid)).shareId).toBe(made.shareId)
    const current = answerOf(shareEndpoints.current, await api.get(sharePath(order.guid)))
    expect(current.share?.shareId).toBe(made.shareId)

    const res = await page(made.path)
    expect(res.status).toBe(200)
    expect(res.headers.get('content-type')).toContain('text/html')
    const html = await res.text()
    expect(html).not.toContain('<script')
    expect(html).toContain('<html lang="en">')
    expect(html).toContain('Place de l&#39;Opéra, facing Boulevard Haussmann, Paris')
    expect(html).toContain(`For ${order.eventName}`)
    const start = order.slots[0]?.startEpochMs ?? 0
    const day = new Intl.DateTimeFormat('en-US', {
      weekday: 'long',
      day: 'numeric',
      month: 'long',
      timeZone: PARIS,
    }).format(start)
    const time = new Intl.DateTimeFormat('en-US', { timeStyle: 'short', timeZone: PARIS }).format(
      start,
    )
    expect(html).toContain(`Plays on ${day} at ${time}`)
    expect(html).toContain(`href="/${LIVE}?device=${DEVICE}">Make your own shout</a>`)
    // the link preview: Open Graph and Twitter's card, with the picture's absolute address
    const image = `${server.url}/s/${made.shareId}/keepsake.jpg`
    expect(html).toContain(`<meta property="og:image" content="${image}">`)
    expect(html).toContain('<meta property="og:image:width" content="1200">')
    expect(html).toContain('<meta property="og:image:height" content="630">')
    expect(html).toContain('<meta name="twitter:card" content="summary_large_image">')
    expect(html).toContain(`<meta name="twitter:image" content="${image}">`)
    expect(html).toContain(`<meta property="og:url" content="${server.url}/s/${made.shareId}">`)

    const picture = await page(made.imagePath)
    expect(picture.status).toBe(200)
    expect(picture.headers.get('content-type')).toBe('image/jpeg')
    expect(picture.headers.get('cache-control')).toBe('public, max-age=31536000, immutable')
    const bytes = Buffer.from(await picture.arrayBuffer())
    const meta = await sharp(bytes).metadata()
    expect([meta.format, meta.width, meta.height]).toEqual(['jpeg', 1200, 630])
    // drawn into the billboard's photo (the demo's sky above the screen), not a framed mock-up
    const { data } = await sharp(bytes)
      .extract({ left: 10, top: 10, width: 1, height: 1 })
      .raw()
      .toBuffer({ resolveWithObject: true })
    const sky = [0x90, 0xca, 0xf9]
    for (let k = 0; k < 3; k++) expect(Math.abs((data[k] ?? 0) - (sky[k] ?? 0))).toBeLessThan(12)
    // made once: the same bytes again, kept in the storage
    const again = Buffer.from(await (await page(made.imagePath)).arrayBuffer())
    expect(again.equals(bytes)).toBe(true)
  })

  it('holds nothing of the shopper but the shout: no e-mail, phone, name, order guid or code, in the page or the picture', async () => {
    const order = await buy(2, 44)
    const made = await share(order.guid)
    const html = await (await page(made.path)).text()
    const bytes = Buffer.from(await (await page(made.imagePath)).arrayBuffer())
    const meta = await sharp(bytes).metadata()
    expect([meta.exif, meta.icc, meta.iptc, meta.xmp, meta.comments]).toEqual([
      undefined,
      undefined,
      undefined,
      undefined,
      undefined,
    ])
    const secrets = [
      'oma.keepsake@example.com',
      '555-123-4567',
      'Lopez',
      order.guid,
      order.confirmationCode,
    ]
    for (const secret of secrets) {
      expect(html).not.toContain(secret)
      expect(bytes.includes(Buffer.from(secret))).toBe(false)
    }
  })

  it('is in the language the shopper chose, and says how often the billboard played it', async () => {
    const order = await buy(3, 40)
    const made = await share(order.guid, 'fr')
    const event = answerOf(spotlight.event, await api.get(`/spotlight/events/${LIVE}`))
    const slot = order.slots[0]?.slotNumber ?? 0
    const plays = proofsOfSlot(event, PARIS, order.guid, slot, { start: 40, end: 20 })
    // the billboard reports once the slot is over by the server's clock
    later = (order.slots[0]?.endEpochMs ?? 0) + 60_000 - Date.now()
    const linked = await server.deps.player.link(DEVICE)
    if (!linked.ok) throw new Error('link failed')
    const posted = answerOf(
      player.plays,
      await api.post(
        `/player/${DEVICE}/plays`,
        { plays },
        { authorization: `Bearer ${linked.value.token}` },
      ),
    )
    expect(posted.accepted).toBe(plays.length)
    later = 0

    const html = await (await page(made.path)).text()
    expect(html).toContain('<html lang="fr">')
    const first = Math.min(...plays.map((p) => p.startedAtEpochMs))
    const day = new Intl.DateTimeFormat('fr-FR', {
      weekday: 'long',
      day: 'numeric',
      month: 'long',
      timeZone: PARIS,
    }).format(first)
    const time = new Intl.DateTimeFormat('fr-FR', { timeStyle: 'short', timeZone: PARIS }).format(
      first,
    )
    expect(html).toContain(`Diffusé ${plays.length} fois le ${day}, d’abord à ${time}`)
    expect(html).toContain(`href="/fr/${LIVE}?device=${DEVICE}">Créez votre shout</a>`)
  })

  it('is made only from the order’s own pages, and only for a confirmed order', async () => {
    const order = await buy(3, 44)
    const foreign = clientWith(server.url, { origin: 'https://elsewhere.example' })
    const refused = await foreign.post(sharePath(order.guid), { locale: 'en' })
    expect(refused.status).toBe(403)
    expect(refused.body).toMatchObject({ codes: ['cross_origin'] })
    const unknown = await shop.post(sharePath('no-such-order'), { locale: 'en' })
    expect([unknown.status, (unknown.body as { codes: string[] }).codes]).toEqual([
      404,
      ['order_not_found'],
    ])
    expect(answerOf(shareEndpoints.current, await api.get(sharePath(order.guid))).share).toBeNull()

    // an order the console cancels is no longer shown, and cannot be shared again
    const made = await share(order.guid)
    const admin = await signedInOperator(server, 'admin')
    const cancelled = await admin.api.post(`/ops/orders/${order.guid}/cancel`, { reason: 'x' })
    expect(cancelled.status).toBe(200)
    expect((await page(made.path)).status).toBe(404)
    expect((await page(made.imagePath)).status).toBe(404)
    const closed = await shop.post(sharePath(order.guid), { locale: 'en' })
    expect([closed.status, (closed.body as { codes: string[] }).codes]).toEqual([
      409,
      ['share_not_allowed'],
    ])
  })

  it('revoked, the page and its picture are gone (404), and a new share is a new address', async () => {
    const order = await buy(4, 40)
    const made = await share(order.guid)
    expect((await page(made.imagePath)).status).toBe(200)
    const stored = await pictureNames(made.shareId)
    expect(stored).toHaveLength(1)

    const revoked = await shop.call('DELETE', sharePath(order.guid))
    expect(revoked.status).toBe(204)
    const gone = await page(made.path, { 'accept-language': 'de-DE,de;q=0.9' })
    expect(gone.status).toBe(404)
    expect(await gone.text()).toContain('Diese Seite wird nicht mehr geteilt')
    expect((await page(made.imagePath)).status).toBe(404)
    expect(answerOf(shareEndpoints.current, await api.get(sharePath(order.guid))).share).toBeNull()
    // its picture left the storage
    expect((await fetch(`${server.url}/api/v1/content/files/${stored[0]}`)).status).toBe(404)
    const twice = await shop.call('DELETE', sharePath(order.guid))
    expect([twice.status, (twice.body as { codes: string[] }).codes]).toEqual([
      404,
      ['share_not_found'],
    ])
    expect((await share(order.guid)).shareId).not.toBe(made.shareId)
  })

  it('shows its picture still when the storage lost it (made again)', async () => {
    const order = await buy(5, 40)
    const made = await share(order.guid)
    expect((await page(made.imagePath)).status).toBe(200)
    const [name] = await pictureNames(made.shareId)
    await server.deps.content.storage.remove(name ?? '')
    const again = await page(made.imagePath)
    expect(again.status).toBe(200)
    expect((await sharp(Buffer.from(await again.arrayBuffer())).metadata()).width).toBe(1200)
  })

  it("is gone once the order's personal data is forgotten (its lifetime)", async () => {
    const order = await buy(4, 44)
    const made = await share(order.guid)
    expect((await page(made.imagePath)).status).toBe(200)
    const [name] = await pictureNames(made.shareId)
    const lastEnd = Math.max(...order.slots.map((s) => s.endEpochMs))

    later = lastEnd + 30 * DAY_MS - 60_000 - Date.now()
    await server.deps.jobs.runNow('order-data-lifetime')
    expect((await page(made.path)).status).toBe(200)

    later = lastEnd + 30 * DAY_MS + 60_000 - Date.now()
    await server.deps.jobs.runNow('order-data-lifetime')
    later = 0
    expect((await page(made.path)).status).toBe(404)
    expect((await page(made.imagePath)).status).toBe(404)
    expect(await pictureNames(made.shareId)).toEqual([])
    expect((await fetch(`${server.url}/api/v1/content/files/${name}`)).status).toBe(404)
  })

  const pictureNames = async (shareId: string) =>
    (
      await server.deps.database.query(sql<{ name: string | null }>`
        select image_name as name from shares where share_id = ${shareId}`)
    ).flatMap((r) => (r.name ? [r.name] : []))
})
