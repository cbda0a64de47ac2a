import { randomUUID } from 'node:crypto'
import { rmSync } from 'node:fs'
import type { ParsedMail } from 'mailparser'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { spotlight } from '../../src/contract/catalogue.ts'
import { mail } from '../../src/contract/mail.ts'
import { order as orderEndpoints } from '../../src/contract/order.ts'
import { formatMoney } from '../../src/domain/index.ts'
import { utcDateTime } from '../../src/server/mail/ics.ts'
import { type RunningServer, startServer } from '../../src/server/main.ts'
import {
  answerOf,
  BACKENDS,
  boughtOrder,
  type Client,
  type ContentSource,
  client,
  daySlots,
  freshDataDir,
  freshPostgres,
  generateContent,
  LIVE,
  POSTGRES_URL,
  proofsOfSlot,
  startTestServer,
  type TestServer,
} from './helpers.ts'
import { signedInOperator } from './ops-helpers.ts'
import { type SmtpTestServer, startSmtpTestServer } from './smtp-test-server.ts'

// The mails as a real SMTP server receives them (subject and body in the order's
// language, the .ics), each (order, kind) once across two instances and a restart, a refusing server
// retried with back-off and its error in the outbox, and without SMTP_URL the mails kept in the outbox.

const DEVICE = 'paris-opera-1'
const PARIS = 'Europe/Paris'
const UK = 'share-your-dragon-uk'
type Content = { key: string; source: ContentSource }

const mailEnv = (smtp: SmtpTestServer | null) => ({
  ...(smtp ? { SMTP_URL: smtp.url } : {}),
  MAIL_FROM: 'Shouts <shop@shop.example>',
  MAIL_POLL_SECONDS: '0.1',
  MAIL_RETRY_SECONDS: '0.2',
  PUBLIC_BASE_URL: 'https://shop.example',
})

async function buy(
  api: Client,
  content: Content,
  slots: number[],
  options: { email: string; locale?: 'en' | 'fr' | 'de'; eventSlug?: string; deviceId?: string },
) {
  const order = await boughtOrder(api, { slots, content, ...options })
  const eventSlug = options.eventSlug ?? content.source.eventSlug
  const summary = answerOf(
    orderEndpoints.summary,
    await api.get(`/order/events/${eventSlug}/orders/${order.guid}`),
  )
  return { ...order, summary: summary }
}

/**
 * An operator signed in from the shop's public origin: these servers have PUBLIC_BASE_URL set (the
 * mails' links), so that is the Origin the guard expects.
 */
const operatorOf = (server: TestServer, role: 'admin' | 'reviewer') =>
  signedInOperator(server, role, undefined, 'https://shop.example')

const to = (mail: ParsedMail) => (Array.isArray(mail.to) ? mail.to[0] : mail.to)?.value[0]?.address
const unfold = (ics: string) => ics.replace(/\r\n /g, '')

describe.each(BACKENDS)('mails over SMTP on %s', (backend) => {
  let smtp: SmtpTestServer
  let server: TestServer
  let api: Client
  let content: Content
  let offsetMs = 0

  beforeAll(async () => {
    smtp = await startSmtpTestServer()
    server = await startTestServer(backend, {
      env: mailEnv(smtp),
      now: () => Date.now() + offsetMs,
    })
    api = client(server.url)
    content = await generateContent(api)
  })
  afterAll(async () => {
    await server?.stop()
    await smtp?.close()
  })

  it('sends "order confirmed" with the code, the billboard, the times, the total and an .ics', async () => {
    const order = await buy(api, content, daySlots(3, 40, 2), { email: 'en@example.com' })
    expect(order.state).toBe('Confirmed')
    const code = order.summary.confirmationCode
    const mail = await smtp.waitFor((m) => to(m) === 'en@example.com')
    expect(mail.subject).toBe(`Your shout is confirmed (${code})`)
    expect(mail.from?.value[0]).toEqual({ address: 'shop@shop.example', name: 'Shouts' })
    expect(mail.messageId).toBe(`<${order.guid}.confirmed@shop.example>`)
    expect(mail.text).toContain(`Confirmation code: ${code}`)
    expect(mail.text).toContain('Billboard: ')
    expect(mail.text).toContain(
      `Total: ${formatMoney(order.summary.totalCents, { currency: order.summary.currency })}`,
    )
    expect(mail.text).toContain("Times are in the billboard's time zone (Europe/Paris)")
    expect(mail.text).toContain(
      `https://shop.example/${LIVE}/order/confirmation?order=${order.guid}`,
    )
    const html = String(mail.html)
    expect(html).toContain('<html lang="en">')
    expect(html).toMatch(/<img src="https:\/\/shop\.example\/[^"]+" alt="Your shout for [^"]+"/)
    expect(html).toContain(code)

    const ics = mail.attachments.find((a) => a.filename === 'shout.ics')
    expect(ics?.contentType).toBe('text/calendar')
    const text = unfold(ics?.content.toString('utf8') ?? '')
    expect(text.startsWith('BEGIN:VCALENDAR\r\nVERSION:2.0\r\n')).toBe(true)
    const events = text.split('BEGIN:VEVENT').slice(1)
    expect(events).toHaveLength(2)
    order.summary.slots.forEach((slot, i) => {
      expect(events[i]).toContain(`DTSTART:${utcDateTime(slot.startEpochMs)}\r\n`)
      expect(events[i]).toContain(`DTEND:${utcDateTime(slot.endEpochMs)}\r\n`)
      expect(events[i]).toContain(`UID:${order.guid}-${slot.slotNumber}@shop.example\r\n`)
    })
    expect(events[0]).toMatch(/SUMMARY:Your shout at .+\r\n/)
  })

  it('sends "received and under review" in the order’s language (fr)', async () => {
    const ukContent = await generateContent(api, 'london-piccadilly-1', UK, 'hearts-wide')
    const order = await buy(api, ukContent, daySlots(10, 30, 2), {
      email: 'fr@example.com',
      locale: 'fr',
      eventSlug: UK,
      deviceId: 'london-piccadilly-1',
    })
    expect(order.state).toBe('UnderReview')
    const mail = await smtp.waitFor((m) => to(m) === 'fr@example.com')
    const code = order.summary.confirmationCode
    expect(mail.subject).toBe(
      `Nous avons reçu votre commande (${code})\u202f: elle est en cours de vérification`,
    )
    expect(mail.text).toContain(`Code de confirmation: ${code}`)
    expect(mail.text).toContain('Horaires dans le fuseau de l’écran (Europe/London)')
    expect(mail.text).toContain(`https://shop.example/fr/${UK}/order/confirmation?order=`)
    expect(String(mail.html)).toContain('<html lang="fr">')
    expect(mail.attachments).toHaveLength(0)
  })

  it('sends "approved" after an operator approves, and "cancelled and refunded" with the reason and the amount', async () => {
    const admin = await operatorOf(server, 'admin')
    const ukContent = await generateContent(api, 'london-piccadilly-1', UK, 'hearts-wide')
    const presale = (email: string, locale: 'en' | 'de', from: number) =>
      buy(api, ukContent, daySlots(10, from, 1), {
        email,
        locale,
        eventSlug: UK,
        deviceId: 'london-piccadilly-1',
      })
    const approved = await presale('approved@example.com', 'en', 40)
    const cancelled = await presale('cancelled@example.com', 'de', 42)
    expect([approved.state, cancelled.state]).toEqual(['UnderReview', 'UnderReview'])
    await smtp.waitFor((m) => to(m) === 'approved@example.com')
    await smtp.waitFor((m) => to(m) === 'cancelled@example.com')

    expect((await admin.api.post(`/ops/orders/${approved.guid}/approve`, {})).status).toBe(200)
    const reason = 'Das Bild zeigt eine Marke'
    const cancel = await admin.api.post(`/ops/orders/${cancelled.guid}/cancel`, { reason })
    expect(cancel.status).toBe(200)

    const yes = await smtp.waitFor(
      (m) => to(m) === 'approved@example.com' && /approved/.test(m.subject ?? ''),
    )
    expect(yes.subject).toBe(`Your shout is approved (${approved.summary.confirmationCode})`)
    expect(yes.attachments.map((a) => a.filename)).toEqual(['shout.ics'])
    const no = await smtp.waitFor(
      (m) => to(m) === 'cancelled@example.com' && /storniert/.test(m.subject ?? ''),
    )
    const code = cancelled.summary.confirmationCode
    expect(no.subject).toBe(`Deine Bestellung wurde storniert und erstattet (${code})`)
    expect(no.text).toContain(`Grund: ${reason}`)
    const refunded = formatMoney(cancelled.summary.totalCents, {
      currency: cancelled.summary.currency,
      locale: 'de',
    })
    expect(cancelled.summary.totalCents).toBeGreaterThan(0)
    expect(no.text).toContain(`Erstattet: ${refunded}`)
    expect(String(no.html)).toContain(reason)
    // an approved order is not also "confirmed without review"
    await server.deps.mail.tick()
    const kinds = (await server.deps.mail.list())
      .filter((m) => m.orderGuid === approved.guid)
      .map((m) => m.kind)
      .sort()
    expect(kinds).toEqual(['approved', 'under_review'])
  })

  it('retries a refused send with back-off, keeps the error in the outbox, then sends it once', async () => {
    smtp.refuse(true)
    const order = await buy(api, content, daySlots(3, 50, 1), { email: 'retry@example.com' })
    const mailOf = async () =>
      (await server.deps.mail.list()).find(
        (m) => m.orderGuid === order.guid && m.kind === 'confirmed',
      )
    let outboxed = await mailOf()
    while (!outboxed || outboxed.attempts < 2 || outboxed.status !== 'queued') {
      await new Promise((r) => setTimeout(r, 50))
      outboxed = await mailOf()
    }
    expect(outboxed.status).toBe('queued')
    expect(outboxed.error).toMatchObject({
      code: 'mail_send_failed',
      params: { reason: expect.stringMatching(/450|Mailbox busy/) },
    })
    expect(smtp.received.some((m) => to(m) === 'retry@example.com')).toBe(false)
    smtp.refuse(false)
    await smtp.waitFor((m) => to(m) === 'retry@example.com')
    let sent = await mailOf()
    while (sent?.status !== 'sent') {
      await new Promise((r) => setTimeout(r, 50))
      sent = await mailOf()
    }
    expect(sent.error).toBeNull()
    expect(sent.sentAtEpochMs).toBeGreaterThan(0)
  })

  it('sends "airs soon" before the first play and "it played" with the proofs, in German', async () => {
    const event = answerOf(spotlight.event, await api.get(`/spotlight/events/${LIVE}`))
    const slots = daySlots(4, 20, 2)
    const order = await buy(api, content, slots, { email: 'de@example.com', locale: 'de' })
    expect(order.state).toBe('Confirmed')
    await smtp.waitFor((m) => to(m) === 'de@example.com') // its confirmation
    const linked = await server.deps.player.link(DEVICE)
    if (!linked.ok) throw new Error('link failed')
    const plays = slots.flatMap((slotNumber) =>
      proofsOfSlot(event, PARIS, order.guid, slotNumber, { start: 40, end: 20 }),
    )
    const firstStart = order.summary.slots[0]?.startEpochMs as number
    const lastEnd = order.summary.slots[1]?.endEpochMs as number
    offsetMs = firstStart - 30 * 60_000 - Date.now()
    const soon = await smtp.waitFor(
      (m) => to(m) === 'de@example.com' && /bald/.test(m.subject ?? ''),
    )
    expect(soon.subject).toBe(`Dein Shout läuft bald (${order.summary.confirmationCode})`)
    expect(soon.text).toMatch(/Erste Ausstrahlung in etwa (29|30) Minuten/)

    // the billboard reports the plays once they have begun, before the last one ends
    offsetMs = lastEnd - 1000 - Date.now()
    const posted = await api.post(
      `/player/${DEVICE}/plays`,
      { plays },
      {
        authorization: `Bearer ${linked.value.token}`,
      },
    )
    expect(posted.status).toBe(202)
    expect(posted.body).toMatchObject({ accepted: plays.length, refused: 0 })

    offsetMs = lastEnd + 1000 - Date.now()
    const played = await smtp.waitFor(
      (m) => to(m) === 'de@example.com' && /gelaufen/.test(m.subject ?? ''),
    )
    expect(played.subject).toBe(`Dein Shout ist gelaufen (${order.summary.confirmationCode})`)
    const times = new Intl.DateTimeFormat('de-DE', {
      dateStyle: 'medium',
      timeStyle: 'medium',
      timeZone: PARIS,
    })
    for (const play of plays) expect(played.text).toContain(times.format(play.startedAtEpochMs))
    expect(played.text).toContain(
      `https://shop.example/de/${LIVE}/order/confirmation?order=${order.guid}`,
    )
    expect(String(played.html)).toContain('<html lang="de">')
  })

  it('counts in the order’s language: a French reminder says "1 minute", and "3 minutes"', async () => {
    // Lingui's plural rules (src/locale/server): French says "1 minute", never "1 minutes"
    const reminderOf = async (day: number, minutesAhead: number, email: string) => {
      const order = await buy(api, content, daySlots(day, 20, 1), { email, locale: 'fr' })
      await smtp.waitFor((m) => to(m) === email) // its confirmation
      const firstStart = order.summary.slots[0]?.startEpochMs as number
      offsetMs = firstStart - minutesAhead * 60_000 - Date.now()
      return smtp.waitFor((m) => to(m) === email && /bientôt/.test(m.subject ?? ''))
    }
    const one = await reminderOf(5, 1, 'fr-one@example.com')
    expect(one.text).toContain('Première diffusion dans environ 1 minute\n')
    // planned a few seconds after the clock moved: 3 minutes ahead, or 2 on a slow machine
    const three = await reminderOf(6, 3, 'fr-three@example.com')
    expect(three.text).toMatch(/Première diffusion dans environ [23] minutes\n/)
  })

  it('sent each mail of an order once', async () => {
    await server.deps.mail.tick()
    const ids = smtp.received.map((m) => m.messageId)
    expect(ids.length).toBeGreaterThanOrEqual(5)
    expect(new Set(ids).size).toBe(ids.length)
  })
})

describe.runIf(POSTGRES_URL)('mails with two instances on one PostgreSQL', () => {
  let smtp: SmtpTestServer
  let db: Awaited<ReturnType<typeof freshPostgres>>
  const dirs: string[] = []
  const running: RunningServer[] = []
  const start = async () => {
    const dataDir = await freshDataDir()
    dirs.push(dataDir)
    const s = await startServer({
      port: 0,
      dataDir,
      serveApp: false,
      databaseUrl: db.url,
      env: { LOG_LEVEL: 'error', WRITES_PER_MINUTE: '100000', ...mailEnv(smtp) },
    })
    running.push(s)
    return s
  }

  beforeAll(async () => {
    smtp = await startSmtpTestServer()
    db = await freshPostgres()
  })
  afterAll(async () => {
    for (const s of running) await s.close()
    await smtp?.close()
    await db?.drop()
    for (const dir of dirs) rmSync(dir, { recursive: true, force: true })
  })

  it('sends each (order, kind) once across two instances and a restart', async () => {
    const a = await start()
    const b = await start()
    const apiA = client(a.url)
    const apiB = client(b.url)
    const content = await generateContent(apiA)
    const orders = [
      await buy(apiA, content, daySlots(3, 10, 1), { email: 'one@example.com' }),
      await buy(apiB, content, daySlots(3, 12, 1), { email: 'two@example.com' }),
      await buy(apiA, content, daySlots(3, 14, 1), { email: 'three@example.com' }),
    ]
    for (const o of orders) expect(o.state).toBe('Confirmed')
    // both instances plan and send at once, on purpose
    await Promise.all([
      a.deps.mail.tick(),
      b.deps.mail.tick(),
      a.deps.mail.tick(),
      b.deps.mail.tick(),
    ])
    for (const address of ['one@example.com', 'two@example.com', 'three@example.com']) {
      await smtp.waitFor((m) => to(m) === address)
    }
    // a restart of one instance, and more passes of both: nothing is sent again
    await a.close()
    const a2 = await start()
    await Promise.all([a2.deps.mail.tick(), b.deps.mail.tick()])
    await Promise.all([a2.deps.mail.tick(), b.deps.mail.tick()])
    const ids = smtp.received.map((m) => m.messageId)
    expect(ids.sort()).toEqual(orders.map((o) => `<${o.guid}.confirmed@shop.example>`).sort())
    const outbox = await a2.deps.mail.list()
    expect(outbox.map((m) => m.status)).toEqual(['sent', 'sent', 'sent'])
  })
})

describe('mails without SMTP_URL', () => {
  let server: TestServer
  let api: Client

  beforeAll(async () => {
    server = await startTestServer('pglite', { env: mailEnv(null) })
    api = client(server.url)
  })
  afterAll(async () => {
    await server?.stop()
  })

  it('keeps every mail in the outbox, sends none, and shows them to admins only', async () => {
    const content = await generateContent(api)
    const order = await buy(api, content, daySlots(3, 60, 1), { email: 'kept@example.com' })
    await server.deps.mail.tick()
    const outbox = await server.deps.mail.list()
    expect(outbox).toEqual([
      expect.objectContaining({
        orderGuid: order.guid,
        kind: 'confirmed',
        to: 'kept@example.com',
        status: 'stored',
        subject: `Your shout is confirmed (${order.summary.confirmationCode})`,
        sentAtEpochMs: null,
        error: null,
      }),
    ])
    const body = await server.deps.mail.mail(outbox[0]?.id as string)
    expect(body.ok && body.value.text).toContain(order.summary.confirmationCode)
    const id = outbox[0]?.id as string
    expect((await api.get('/ops/outbox')).status).toBe(401)
    expect((await api.get(`/ops/outbox/${id}`)).status).toBe(401)
    const reviewer = await operatorOf(server, 'reviewer')
    expect((await reviewer.api.get('/ops/outbox')).status).toBe(403)
    const admin = await operatorOf(server, 'admin')
    const listed = answerOf(mail.outbox, await admin.api.get('/ops/outbox'))
    expect(listed.mails).toEqual([
      expect.objectContaining({ id, status: 'stored', kind: 'confirmed', locale: 'en' }),
    ])
    const one = answerOf(mail.outboxMail, await admin.api.get(`/ops/outbox/${id}`))
    expect(one.text).toContain(order.summary.confirmationCode)
    expect(one.html).toContain('<html lang="en">')
    expect(one.attachments).toEqual([
      { filename: 'shout.ics', contentType: 'text/calendar; charset=utf-8; method=PUBLISH' },
    ])
    expect((await admin.api.get(`/ops/outbox/${randomUUID()}`)).status).toBe(404)
  })
})
