import { mkdtemp, rm } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import path from 'node:path'
import type { ParsedMail } from 'mailparser'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import type { OrderSummary } from '../../src/contract/index.ts'
import { order as orderEndpoints } from '../../src/contract/order.ts'
import type { Heartbeat } from '../../src/contract/player.ts'
import { type RunningServer, startServer } from '../../src/server/main.ts'
import { createManualClock } from '../../src/server/platform/clock.ts'
import { sql } from '../../src/server/platform/db/sql.ts'
import { createLogger } from '../../src/server/platform/log.ts'
import {
  answerOf,
  BACKENDS,
  boughtOrder,
  client,
  daySlots,
  generateContent,
  LIVE,
  startTestServer,
  type TestServer,
} from './helpers.ts'
import { signedInOperator } from './ops-helpers.ts'
import { type SmtpTestServer, startSmtpTestServer } from './smtp-test-server.ts'

// Offline and back-online alerts: a billboard with sold plays in the next hour that has not reported
// for BILLBOARD_OFFLINE_MINUTES (10) makes one mail to each admin, in the admin's language, and one
// more once it reports again, with how long it was dark and the sold plays it missed; two instances
// running the job at once (PostgreSQL) send each once. Time is a manual clock.

const MINUTE = 60_000
const to = (mail: ParsedMail) => (Array.isArray(mail.to) ? mail.to[0] : mail.to)?.value[0]?.address

describe.each(BACKENDS)('billboard outage alerts on %s', (backend) => {
  let smtp: SmtpTestServer
  let server: TestServer
  let other: RunningServer | null = null
  let otherDir: string | null = null
  const clock = createManualClock(Date.now())

  beforeAll(async () => {
    smtp = await startSmtpTestServer()
    const env = {
      SMTP_URL: smtp.url,
      MAIL_FROM: 'Shouts <shop@shop.example>',
      PUBLIC_BASE_URL: 'https://shop.example',
    }
    server = await startTestServer(backend, { clock, now: () => clock.now(), env })
    if (backend === 'postgres') {
      otherDir = await mkdtemp(path.join(tmpdir(), 'shouts-outages-'))
      other = await startServer({
        port: 0,
        serveApp: false,
        dataDir: otherDir,
        databaseUrl: server.deps.env.DATABASE_URL as string,
        now: () => clock.now(),
        clock: createManualClock(Date.now()),
        log: createLogger('silent'),
        env: { ...env, WRITES_PER_MINUTE: '100000' },
      })
    }
  })
  afterAll(async () => {
    await other?.close()
    await server?.stop()
    await smtp?.close()
    if (otherDir) await rm(otherDir, { recursive: true, force: true })
  })

  const everyInstance = async () => {
    await server.deps.jobs.idle()
    await Promise.all([
      server.deps.jobs.runNow('billboard-outages'),
      other?.deps.jobs.runNow('billboard-outages'),
    ])
    await server.deps.mail.sendDue()
    await other?.deps.mail.sendDue()
  }

  it('mails each admin once when a billboard with sold plays goes dark, and once when it is back', async () => {
    const api = client(server.url)
    const admin = await signedInOperator(server, 'admin', undefined, 'https://shop.example')
    const french = await signedInOperator(server, 'admin', undefined, 'https://shop.example')
    await server.deps.database.query(
      sql`update operators set locale = 'fr' where email = ${french.email}`,
    )
    const content = await generateContent(api)
    const order = await boughtOrder(api, { slots: daySlots(2, 40, 1), content })
    expect(order.state).toBe('Confirmed')
    const summary = answerOf(
      orderEndpoints.summary,
      await api.get(`/order/events/${LIVE}/orders/${order.guid}`),
    )
    const slot = summary.slots[0] as OrderSummary['slots'][0]
    const device = summary.device.deviceId
    const linked = await server.deps.player.link(device)
    if (!linked.ok) throw new Error('link failed')
    const beat = async () => {
      const sent: Heartbeat = {
        sentAtEpochMs: clock.now(),
        showing: { kind: 'house' },
        clockCorrectionMs: 0,
        window: { fromEpochMs: clock.now(), toEpochMs: clock.now() + 86_400_000 },
        files: { cached: 3, failed: 0 },
        pendingPlays: 0,
        version: '1.0.0',
        screen: { widthPx: 1400, heightPx: 400 },
      }
      const res = await api.post(`/player/${device}/heartbeat`, sent, {
        authorization: `Bearer ${linked.value.token}`,
      })
      expect(res.status).toBe(200)
    }

    // the billboard reports 30 minutes before the sold slot, then falls silent
    clock.advance(slot.startEpochMs - 30 * MINUTE - clock.now())
    await beat()
    const lastSeen = clock.now()
    clock.advance(10 * MINUTE - 1)
    await everyInstance()
    const offline = (address: string) =>
      smtp.received.filter((m) => to(m) === address && /offline|hors ligne/i.test(m.subject ?? ''))
    expect(offline(admin.email)).toHaveLength(0)
    clock.advance(1)
    await everyInstance()
    await smtp.waitFor((m) => to(m) === french.email && /hors ligne/.test(m.subject ?? ''))
    await smtp.waitFor((m) => to(m) === admin.email && /offline/.test(m.subject ?? ''))
    const [en] = offline(admin.email)
    expect(en?.subject).toMatch(/^Billboard offline: /)
    expect(en?.text).toContain(device)
    expect(en?.text).toContain('https://shop.example/ops/billboards')
    const [fr] = offline(french.email)
    expect(fr?.subject).toMatch(/^Écran hors ligne\u202f: /)

    // still dark a few minutes later: nothing more
    clock.advance(5 * MINUTE)
    await everyInstance()
    expect(offline(admin.email)).toHaveLength(1)
    expect(offline(french.email)).toHaveLength(1)

    // back after the slot: dark for its whole time, the slot's four plays missed
    clock.advance(slot.endEpochMs + 5 * MINUTE - clock.now())
    await beat()
    const dark = Math.round((clock.now() - lastSeen) / MINUTE)
    await everyInstance()
    await everyInstance()
    const back = smtp.received.filter(
      (m) => to(m) === admin.email && /back online/.test(m.subject ?? ''),
    )
    expect(back).toHaveLength(1)
    const hours = `${Math.floor(dark / 60)} h ${dark % 60} min`
    expect(back[0]?.text).toContain(`Dark for: ${dark >= 60 ? hours : `${dark} min`}`)
    expect(back[0]?.text).toContain('Sold plays missed: 4')
    const backFr = smtp.received.filter(
      (m) => to(m) === french.email && /de nouveau en ligne/.test(m.subject ?? ''),
    )
    expect(backFr).toHaveLength(1)
    expect(backFr[0]?.text).toContain('Diffusions vendues manquées: 4')
    expect(offline(admin.email)).toHaveLength(1)
  })

  it('sends no mail for a silent billboard whose sold plays are more than an hour away', async () => {
    const api = client(server.url)
    const quiet = 'paris-republique'
    const content = await generateContent(api, quiet)
    const order = await boughtOrder(api, { slots: daySlots(4, 40, 1), content })
    expect(order.state).toBe('Confirmed')
    const summary = answerOf(
      orderEndpoints.summary,
      await api.get(`/order/events/${LIVE}/orders/${order.guid}`),
    )
    const slot = summary.slots[0] as OrderSummary['slots'][0]
    const linked = await server.deps.player.link(quiet)
    if (!linked.ok) throw new Error('link failed')
    // its SMIL player fetches the playlist three hours before the sold slot, then falls silent
    clock.advance(slot.startEpochMs - 3 * 60 * MINUTE - clock.now())
    const smil = `${server.url}/api/v1/player/${quiet}/schedule.smil?token=${linked.value.token}`
    expect((await fetch(smil)).status).toBe(200)
    // silent for 50 minutes: offline, but the next hour holds no sold play of it
    clock.advance(50 * MINUTE)
    await everyInstance()
    await everyInstance()
    // the shopper's own mails go out; no admin hears of the billboard
    const alerts = smtp.received.filter((m) => /offline|online|en ligne/i.test(m.subject ?? ''))
    expect(alerts.filter((m) => m.text?.includes(quiet))).toEqual([])
    const outages = await server.deps.database.query(
      sql`select device_id from billboard_outages where device_id = ${quiet}`,
    )
    expect(outages).toEqual([])
  })
})
