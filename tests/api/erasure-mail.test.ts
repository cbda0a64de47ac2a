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
import { type SmtpTestServer, startSmtpTestServer } from './smtp-test-server.ts'

// The shopper who has an order's data forgotten through its mails' link gets one last mail, in the
// order's language, over a real SMTP server: what was erased and what the shop keeps. A second post,
// even at the same time, sends nothing more, and the outbox keeps no address once it is sent. The
// jobs run by a manual clock that never moves (only the test runs them); the shop's clock jumps.

describe.each(BACKENDS)('the mail confirming a forgotten order (%s)', (backend) => {
  let smtp: SmtpTestServer
  let server: TestServer
  let api: Client
  let later = 0

  beforeAll(async () => {
    smtp = await startSmtpTestServer()
    const clock = createManualClock(Date.now())
    server = await startTestServer(backend, {
      now: () => clock.now() + later,
      clock,
      env: { SMTP_URL: smtp.url, MAIL_FROM: 'Shouts <shop@shop.example>' },
    })
    api = client(server.url)
  })
  afterAll(async () => {
    await server?.stop()
    await smtp?.close()
  })

  const outboxOf = (guid: string) =>
    server.deps.database.query(sql<{ kind: string; to: string; text: string; status: string }>`
      select kind, to_address as "to", body_text as text, status
      from mail_outbox where order_guid = ${guid} order by created_at`)
  const confirm = async (url: string) => {
    const res = await fetch(url, { method: 'POST', headers: { origin: server.url } })
    return { status: res.status, html: await res.text() }
  }

  it('a French shopper gets one mail in French saying what was erased and what is kept', async () => {
    const content = await generateContent(api, undefined, undefined, undefined, 'Pour Papi')
    const order = await boughtOrder(api, {
      slots: daySlots(3, 40, 1),
      content,
      email: 'papi@example.com',
      locale: 'fr',
    })
    await server.deps.jobs.runNow('mail-planner')
    await server.deps.jobs.runNow('mail-sender')
    const [first] = await outboxOf(order.guid)
    const link = first?.text.match(/Oublier mes données: (\S+)/)?.[1] ?? ''
    expect(link).not.toBe('')
    const url = new URL(new URL(link).pathname, server.url).toString()
    const summary = answerOf(
      orderEndpoints.summary,
      await api.get(`/order/events/${LIVE}/orders/${order.guid}`),
    )
    later = Math.max(...summary.slots.map((s) => s.endEpochMs)) + 60_000 - Date.now()

    // two posts at once, then a third: the order is forgotten once, and mailed once
    const answers = await Promise.all([confirm(url), confirm(url)])
    for (const answer of answers) expect(answer.status).toBe(200)
    expect((await confirm(url)).html).toContain('sont oubliées')
    await server.deps.jobs.runNow('mail-planner')
    await server.deps.jobs.runNow('mail-sender')
    await server.deps.jobs.runNow('mail-sender')

    const erased = smtp.received.filter((m) => m.subject?.includes('données personnelles'))
    expect(erased).toHaveLength(1)
    const [mail] = erased
    const to = Array.isArray(mail?.to) ? mail?.to[0] : mail?.to
    expect(to?.value[0]?.address).toBe('papi@example.com')
    expect(mail?.subject).toBe(
      `Vos données personnelles sont oubliées (${summary.confirmationCode})`,
    )
    expect(mail?.text).toContain('nous avons effacé votre photo ou vidéo, votre message')
    expect(mail?.text).toContain('Nous gardons ce que la comptabilité exige')
    expect(mail?.text).toContain(summary.confirmationCode)
    expect(mail?.html).toContain('lang="fr"')
    // no link to forget again, no photo that is gone
    expect(mail?.text).not.toContain('Oublier mes données')
    expect(mail?.html).not.toContain('<img')

    // the outbox keeps no address of a forgotten order, this last mail's included
    const rows = await outboxOf(order.guid)
    expect(rows.filter((r) => r.kind === 'erased')).toEqual([
      { kind: 'erased', to: '', text: '', status: 'sent' },
    ])
    for (const row of rows) expect(row.to).toBe('')
  })
})
