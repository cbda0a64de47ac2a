import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { advertiserDoor } from '../../src/contract/advertisers-door.ts'
import { mail, type OutboxMail, type OutboxMailBody } from '../../src/contract/mail.ts'
import { opsAdvertisers } from '../../src/contract/ops/advertisers.ts'
import { ops } from '../../src/contract/ops/orders.ts'
import { sql } from '../../src/server/platform/db/sql.ts'
import { createLogger } from '../../src/server/platform/log.ts'
import {
  type AdvertiserClient,
  advertiserClient,
  newEmail,
  SHOP,
  STRONG_PASSWORD,
} from './advertiser-helpers.ts'
import { answerOf, BACKENDS, client, startTestServer, type TestServer } from './helpers.ts'
import { type SignedIn, signedInOperator } from './ops-helpers.ts'

// api-v1 "Advertisers", the way in, on a fresh install with no mail server: the public billboards
// of the /advertise page (anyone, cached, limited per address), sign-up verified through the
// console's outbox (APP_ENV=local shows the one-time link there and prints it once in the log;
// elsewhere the body stays hidden and the outbox says why), "send the link again" (the same answer
// whatever the e-mail, limited per e-mail in the database), an admin verifying an account by hand
// (audited), and the password meter's judge (sign-up's own).

describe.each(BACKENDS)('an advertiser’s way in on %s', (backend) => {
  let server: TestServer
  let admin: SignedIn
  const logs: string[] = []

  beforeAll(async () => {
    server = await startTestServer(backend, {
      env: { MAIL_POLL_SECONDS: '0.05', PUBLIC_BASE_URL: SHOP, APP_ENV: 'local' },
      log: createLogger('info', {}, (line) => logs.push(line)),
    })
    admin = await signedInOperator(server, 'admin', undefined, SHOP)
  })
  afterAll(async () => {
    await server?.stop()
  })

  const signUp = (api: AdvertiserClient, email: string, password = STRONG_PASSWORD) =>
    api.post('/advertisers/accounts', {
      email,
      password,
      name: 'Léa',
      company: 'Brand',
      locale: 'fr',
    })

  /**
   * The mails made for this address, newest first, once the requests answered are done (the job
   * runs here too, and may hold one while it works) and at least `count` mails are there.
   */
  async function mailsTo(email: string, count = 1): Promise<OutboxMail[]> {
    for (let tries = 0; ; tries++) {
      await server.deps.advertisers.accounts.runRequests()
      const [left] = await server.deps.database.query(
        sql<{ n: number }>`select count(*)::int as n from advertiser_requests`,
      )
      const listed = answerOf(mail.outbox, await admin.api.get('/ops/outbox'))
      const mails = listed.mails.filter((m) => m.to === email)
      if ((left?.n === 0 && mails.length >= count) || tries > 200) return mails
      await new Promise((resolve) => setTimeout(resolve, 20))
    }
  }
  const bodyOf = async (id: string) =>
    answerOf(mail.outboxMail, await admin.api.get(`/ops/outbox/${id}`))
  const tokenOf = (body: OutboxMailBody) => /#verify=([\w-]+)/.exec(body.text)?.[1] ?? ''

  it('shows anyone the billboards sold to advertisers, named, with their audience and price per play', async () => {
    const anyone = client(server.url)
    const reply = await anyone.get('/advertisers/billboards')
    expect(reply.headers.get('cache-control')).toBe('public, max-age=300')
    const res = answerOf(advertiserDoor.billboardsForSale, reply)
    const opera = res.billboards.find((b) => b.deviceId === 'paris-opera-1')
    expect(opera).toMatchObject({
      location: "Place de l'Opéra, facing Boulevard Haussmann",
      city: 'Paris',
      currency: 'EUR',
    })
    expect(opera?.impressionsPerPlay).toBeGreaterThan(0)
    expect(opera?.costCentsPerPlay).toBeGreaterThan(0)
    // every currency the shop sells in, and nothing of what a planner alone may see
    expect(new Set(res.billboards.map((b) => b.currency))).toEqual(new Set(['EUR', 'GBP', 'USD']))
    expect(opera).not.toHaveProperty('freePlays')
  })

  it('completes a sign-up with no mail server: the link is readable in the outbox, marked, and printed once in the log', async () => {
    const api = advertiserClient(server)
    const email = newEmail('local')
    expect((await signUp(api, email)).status).toBe(202)
    const [verify] = await mailsTo(email)
    expect(verify).toMatchObject({ kind: 'account_verify', status: 'stored', oneTimeLink: true })
    const body = await bodyOf(verify?.id as string)
    expect(body.bodyHidden).toBeNull()
    expect(body.text).toContain(`${SHOP}/fr/account#verify=`)
    const token = tokenOf(body)
    expect(logs.filter((l) => l.includes(token))).toHaveLength(1)
    expect((await api.post('/advertisers/accounts/verify', { token })).status).toBe(200)
    expect(
      (await api.post('/advertisers/session', { email, password: STRONG_PASSWORD })).status,
    ).toBe(200)
  })

  it('sends the link again to an account not verified yet, and answers the same for any e-mail', async () => {
    const api = advertiserClient(server)
    const waiting = newEmail('waiting')
    const verified = newEmail('verified')
    const stranger = newEmail('nobody')
    await signUp(api, waiting)
    await signUp(api, verified)
    const first = tokenOf(await bodyOf((await mailsTo(waiting))[0]?.id as string))
    const own = tokenOf(await bodyOf((await mailsTo(verified))[0]?.id as string))
    expect((await api.post('/advertisers/accounts/verify', { token: own })).status).toBe(200)

    const answers = await Promise.all(
      [waiting, verified, stranger].map((email) =>
        api.post('/advertisers/accounts/verify/resend', { email }),
      ),
    )
    for (const answer of answers) {
      expect(answer.status).toBe(202)
      expect(answer.body).toEqual({})
    }
    const again = await mailsTo(waiting, 2)
    expect(again.map((m) => m.kind)).toEqual(['account_verify', 'account_verify'])
    expect(await mailsTo(verified)).toHaveLength(1)
    expect(await mailsTo(stranger, 0)).toHaveLength(0)
    // the new link works; the one it replaced does not
    const second = tokenOf(await bodyOf(again[0]?.id as string))
    expect((await api.post('/advertisers/accounts/verify', { token: first })).status).toBe(401)
    expect((await api.post('/advertisers/accounts/verify', { token: second })).status).toBe(200)
  })

  it('limits sending the link again per e-mail, in the database: a restarted server still refuses', async () => {
    const api = advertiserClient(server)
    const email = newEmail('flood')
    for (let i = 0; i < 10; i++) {
      expect((await api.post('/advertisers/accounts/verify/resend', { email })).status).toBe(202)
    }
    const refused = await api.post('/advertisers/accounts/verify/resend', { email })
    expect(refused.status).toBe(429)
    expect(Number(refused.headers.get('retry-after'))).toBeGreaterThan(0)
    // another e-mail is not held back by it
    const other = newEmail('other')
    expect((await api.post('/advertisers/accounts/verify/resend', { email: other })).status).toBe(
      202,
    )
    server = await server.restart()
    admin = await signedInOperator(server, 'admin', undefined, SHOP)
    const afterRestart = advertiserClient(server)
    expect((await afterRestart.post('/advertisers/accounts/verify/resend', { email })).status).toBe(
      429,
    )
  })

  it('lets an admin verify an account by hand, once, in the audit log; refuses a reviewer', async () => {
    const api = advertiserClient(server)
    const email = newEmail('by-hand')
    await signUp(api, email)
    await mailsTo(email)
    expect(
      (await api.post('/advertisers/session', { email, password: STRONG_PASSWORD })).status,
    ).toBe(403)

    const reviewer = await signedInOperator(server, 'reviewer', undefined, SHOP)
    expect((await reviewer.api.post('/ops/advertisers/verify', { email })).status).toBe(403)
    const unknown = await admin.api.post('/ops/advertisers/verify', { email: newEmail('none') })
    expect(unknown.status).toBe(404)
    expect(unknown.body).toMatchObject({ codes: ['advertiser_not_found'] })

    const done = answerOf(
      opsAdvertisers.verifyAdvertiser,
      await admin.api.post('/ops/advertisers/verify', { email: email.toUpperCase() }),
    )
    expect(done).toMatchObject({ email, company: 'Brand', changed: true })
    const twice = await admin.api.post('/ops/advertisers/verify', { email })
    expect(twice.body).toMatchObject({ changed: false })
    expect(
      (await api.post('/advertisers/session', { email, password: STRONG_PASSWORD })).status,
    ).toBe(200)

    const audit = answerOf(ops.audit, await admin.api.get('/ops/audit'))
    const entries = audit.entries.filter((e) => e.action === 'advertiser_verify')
    expect(entries).toEqual([
      expect.objectContaining({
        operatorEmail: admin.email,
        detail: { accountId: done.accountId },
      }),
    ])
    // without the shop's Origin the change is refused
    const crossSite = await admin.api.post(
      '/ops/advertisers/verify',
      { email },
      {
        origin: 'https://evil.example',
      },
    )
    expect(crossSite.status).toBe(403)
  })

  it('judges a password as sign-up does while it is typed, knowing the words typed with it', async () => {
    const api = advertiserClient(server)
    const judge = (password: string) =>
      api.post('/advertisers/password-strength', {
        password,
        email: 'lea@brand.example',
        name: 'Léa',
        company: 'Brandmaker',
      })
    const weak = await judge('brandmaker2024')
    expect(answerOf(advertiserDoor.passwordStrength, weak).strongEnough).toBe(false)
    expect(weak.headers.get('cache-control')).toBe('no-store')
    const strong = answerOf(advertiserDoor.passwordStrength, await judge(STRONG_PASSWORD))
    expect(strong).toEqual({ score: 4, strongEnough: true })
  })
})

describe.each(BACKENDS)('the public billboards for sale on %s', (backend) => {
  let server: TestServer

  beforeAll(async () => {
    server = await startTestServer(backend)
  })
  afterAll(async () => {
    await server?.stop()
  })

  it('answers an address at most 60 times a minute, then 429 with Retry-After, counted in the database', async () => {
    const anyone = client(server.url)
    let refused: Awaited<ReturnType<typeof anyone.get>> | null = null
    let answered = 0
    for (let i = 0; i < 70 && !refused; i++) {
      const res = await anyone.get('/advertisers/billboards')
      if (res.status === 429) refused = res
      else {
        expect(res.status).toBe(200)
        answered++
      }
    }
    expect(answered).toBeLessThanOrEqual(60)
    expect(refused?.body).toMatchObject({ codes: ['too_many_requests'] })
    expect(Number(refused?.headers.get('retry-after'))).toBeGreaterThan(0)
  })
})

describe('an advertiser’s one-time link outside a local install', () => {
  let server: TestServer
  const logs: string[] = []

  beforeAll(async () => {
    server = await startTestServer('pglite', {
      env: { MAIL_POLL_SECONDS: '0.05', PUBLIC_BASE_URL: SHOP, APP_ENV: 'dev' },
      log: createLogger('info', {}, (line) => logs.push(line)),
    })
  })
  afterAll(async () => {
    await server?.stop()
  })

  it('keeps the body hidden and says why, and never logs the link', async () => {
    const admin = await signedInOperator(server, 'admin', undefined, SHOP)
    const api = advertiserClient(server)
    const email = newEmail('dev')
    await api.post('/advertisers/accounts', {
      email,
      password: STRONG_PASSWORD,
      name: 'Léa',
      company: 'Brand',
      locale: 'en',
    })
    await server.deps.advertisers.accounts.runRequests()
    const listed = answerOf(mail.outbox, await admin.api.get('/ops/outbox'))
    const verify = listed.mails.find((m) => m.to === email)
    expect(verify).toMatchObject({ kind: 'account_verify', oneTimeLink: true })
    const body = answerOf(mail.outboxMail, await admin.api.get(`/ops/outbox/${verify?.id}`))
    expect(body).toMatchObject({ text: '', html: '', bodyHidden: 'one_time_link' })
    expect(logs.some((l) => l.includes('#verify='))).toBe(false)
  })
})
