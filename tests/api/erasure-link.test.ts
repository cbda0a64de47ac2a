import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import type { OrderSummary } from '../../src/contract/index.ts'
import { createManualClock } from '../../src/server/platform/clock.ts'
import { sql } from '../../src/server/platform/db/sql.ts'
import {
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

  beforeAll(async () => {
    const clock = createManualClock(Date.now())
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
    expect(link).toMatch(/\/s\/forget\/[A-Za-z0-9_-]{43}$/)
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

    const summary = await api.get<OrderSummary>(`/order/events/${LIVE}/orders/${order.guid}`)
    later = Math.max(...summary.body.slots.map((s) => s.endEpochMs)) + 60_000 - Date.now()
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

  it('a forged or altered link is 404 and changes nothing', async () => {
    const forged = `${server.url}/s/forget/${'A'.repeat(43)}`
    expect((await page(forged)).status).toBe(404)
    expect((await confirm(forged)).status).toBe(404)
    expect((await page(`${server.url}/s/forget/short`)).status).toBe(404)
  })
})
