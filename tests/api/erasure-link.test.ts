import { createHmac } from 'node:crypto'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { order as orderEndpoints } from '../../src/contract/order.ts'
import { createManualClock } from '../../src/server/platform/clock.ts'
import { sql } from '../../src/server/platform/db/sql.ts'
import {
  answerOf,
  BACKENDS,
  boughtOrder,
  type Client,
  client,
  daySlots,
  generateContent,
  LIVE,
  startTestServer,
  type TestServer,
} from './helpers.ts'

// The shopper's "Forget my data" link in every mail of an order: a page in the order's language that
// changes nothing when read; its button forgets the order's personal data at once, through the same
// path as its lifetime (the content, the mails, the contact), once no slot is still to play. The jobs
// run by a manual clock that never moves (only the test runs them); the shop's clock jumps.

describe.each(BACKENDS)('the mails\' "Forget my data" link (%s)', (backend) => {
  let server: TestServer
  let api: Client
  let later = 0
  const clock = createManualClock(Date.now())

  beforeAll(async () => {
    server = await startTestServer(backend, { now: () => clock.now() + later, clock })
    api = client(server.url)
  })
  afterAll(async () => {
    await server?.stop()
  })

  const mailsOf = (guid: string) =>
    server.deps.database.query(sql<{ to: string; text: string; html: string }>`
      select to_address as "to", body_text as text, body_html as html
      from mail_outbox where order_guid = ${guid}`)
  const emailOf = async (guid: string) => {
    const [row] = await server.deps.database.query(sql<{ email: string }>`
      select email from orders where guid = ${guid}`)
    return row?.email
  }
  const page = async (url: string, init: RequestInit = {}) => {
    const res = await fetch(url, { redirect: 'manual', ...init })
    return { status: res.status, html: await res.text() }
  }
  const confirm = (url: string) => page(url, { method: 'POST', headers: { origin: server.url } })

  it("opens a page in the order's language; its button forgets the order once it has played", async () => {
    const content = await generateContent(api, undefined, undefined, undefined, 'Pour Mamie')
    const order = await boughtOrder(api, {
      slots: daySlots(2, 40, 1),
      content,
      email: 'mamie@example.com',
      locale: 'fr',
    })
    expect(order.state).toBe('Confirmed')
    await server.deps.jobs.runNow('mail-planner')
    const [mail] = await mailsOf(order.guid)
    const link = mail?.text.match(/Oublier mes données: (\S+)/)?.[1] ?? ''
    expect(link).toMatch(/\/s\/forget\/[0-9a-f-]{36}\.[0-9]+\.[A-Za-z0-9_-]{43}$/)
    expect(mail?.html).toContain(`href="${link}"`)
    const url = new URL(new URL(link).pathname, server.url).toString()

    // Before the shout plays: the page says from when, and its button is not there
    const early = await page(url)
    expect(early.status).toBe(200)
    expect(early.html).toContain('lang="fr"')
    expect(early.html).toContain('n’a pas encore été diffusé')
    expect(early.html).not.toContain('<form')
    expect((await confirm(url)).html).toContain('n’a pas encore été diffusé')
    expect(await emailOf(order.guid)).toBe('mamie@example.com')

    const summary = answerOf(
      orderEndpoints.summary,
      await api.get(`/order/events/${LIVE}/orders/${order.guid}`),
    )
    later = Math.max(...summary.slots.map((s) => s.endEpochMs)) + 60_000 - Date.now()
    // Reading the page changes nothing
    const asked = await page(url)
    expect(asked.status).toBe(200)
    expect(asked.html).toContain('<form method="post"')
    expect(asked.html).toContain('Oublier mes données</button>')
    expect(await page(url)).toEqual(asked)
    expect(await emailOf(order.guid)).toBe('mamie@example.com')
    expect((await api.get(`/content/${content.key}`)).status).toBe(200)
    // A post from another site is refused
    const foreign = await page(url, {
      method: 'POST',
      headers: { origin: 'https://elsewhere.example' },
    })
    expect(foreign.status).toBe(403)
    expect(await emailOf(order.guid)).toBe('mamie@example.com')

    const done = await confirm(url)
    expect(done.status).toBe(200)
    expect(done.html).toContain('Vos données personnelles de cette commande sont oubliées.')
    expect(await emailOf(order.guid)).toBe('')
    // the same path as the lifetime: the shout and its photo gone, the mails blanked
    expect((await api.get(`/content/${content.key}`)).status).toBe(404)
    for (const sent of await mailsOf(order.guid)) expect(sent.to).toBe('')
    // A second post is harmless: it says so again
    const again = await confirm(url)
    expect(again.status).toBe(200)
    expect(again.html).toContain('sont oubliées')
    expect((await page(url)).html).toContain('sont oubliées')
  })

  it("a forged, altered, expired or other order's link is 404 and changes nothing", async () => {
    later = 0
    // a client of its own: the first test's photo is forgotten
    const shopper = client(server.url)
    const linkOf = async (email: string, slot: number) => {
      const content = await generateContent(shopper)
      const order = await boughtOrder(shopper, { slots: daySlots(4, slot, 1), content, email })
      await server.deps.jobs.runNow('mail-planner')
      const [mail] = await mailsOf(order.guid)
      const link = mail?.text.match(/Forget my data: (\S+)/)?.[1] ?? ''
      const [guid = '', expires = '', mac = ''] = new URL(link).pathname.slice(10).split('.')
      return { guid, expires: Number(expires), mac }
    }
    const a = await linkOf('a@example.com', 40)
    const b = await linkOf('b@example.com', 44)
    const urlOf = (guid: string, expires: number, mac: string) =>
      `${server.url}/s/forget/${guid}.${expires}.${mac}`
    // the genuine link opens (its slot has not played: it says from when)
    expect((await page(urlOf(a.guid, a.expires, a.mac))).status).toBe(200)

    // signed with the key the server keeps (no ERASURE_LINK_KEY here), as an attacker cannot
    const [key] = await server.deps.database.query(sql<{ secret: string }>`
      select secret from order_erasure_keys`)
    const sign = (guid: string, expires: number) =>
      createHmac('sha256', key?.secret ?? '')
        .update(`shouts-erasure-link:${guid}:${expires}`)
        .digest('base64url')
    expect(sign(a.guid, a.expires)).toBe(a.mac)

    const flip = (mac: string) => `${mac[0] === 'A' ? 'B' : 'A'}${mac.slice(1)}`
    const past = Math.floor(Date.now() / 1000) - 1
    const refused = [
      `${server.url}/s/forget/${'A'.repeat(43)}`,
      `${server.url}/s/forget/short`,
      // altered signature
      urlOf(a.guid, a.expires, flip(a.mac)),
      // another order's signature on this order, and this order's on another
      urlOf(a.guid, b.expires, b.mac),
      urlOf(b.guid, a.expires, a.mac),
      // a later expiry with the old signature
      urlOf(a.guid, a.expires + 86_400, a.mac),
      // rightly signed but expired
      urlOf(a.guid, past, sign(a.guid, past)),
    ]
    // run after its slots, when the genuine link would forget the order
    const summary = answerOf(
      orderEndpoints.summary,
      await api.get(`/order/events/${LIVE}/orders/${a.guid}`),
    )
    later = Math.max(...summary.slots.map((s) => s.endEpochMs)) + 60_000 - Date.now()
    for (const url of refused) {
      expect((await page(url)).status, url).toBe(404)
      expect((await confirm(url)).status, url).toBe(404)
    }
    expect(await emailOf(a.guid)).toBe('a@example.com')
    expect(await emailOf(b.guid)).toBe('b@example.com')

    // the genuine link past its own expiry is refused too
    later = a.expires * 1000 + 1000 - clock.now()
    expect((await confirm(urlOf(a.guid, a.expires, a.mac))).status).toBe(404)
    expect(await emailOf(a.guid)).toBe('a@example.com')
  })
})
