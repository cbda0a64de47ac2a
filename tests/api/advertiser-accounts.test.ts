import { createHash } from 'node:crypto'
import { SignJWT } from 'jose'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { advertisers } from '../../src/contract/advertisers.ts'
import { createAccountRequests } from '../../src/server/advertisers/accounts/requests.ts'
import { createAdvertiserMails } from '../../src/server/advertisers/mails/accounts.ts'
import { createManualClock } from '../../src/server/platform/clock.ts'
import type { Database } from '../../src/server/platform/db/client.ts'
import { sql } from '../../src/server/platform/db/sql.ts'
import { createLogger } from '../../src/server/platform/log.ts'
import {
  type AdvertiserClient,
  advertiserClient,
  advertiserEnv,
  linkToken,
  mailTo,
  newEmail,
  STRONG_PASSWORD,
  signedInAdvertiser,
} from './advertiser-helpers.ts'
import { answerOf, BACKENDS, startTestServer, type TestServer } from './helpers.ts'
import { type SmtpTestServer, startSmtpTestServer } from './smtp-test-server.ts'

// api-v1 "Advertisers", accounts and sessions, on the real server with a real SMTP server: sign-up
// (a strong password, the same answer whether or not the e-mail has an account), the verification
// link, sign-in, the bearer token (missing, malformed, of another key, expired: spec §7's messages),
// the refresh cookie (rotated, a reuse revokes its family, kept only as a hash), sign-out, the password
// reset link and its limit, the signing keys rotated (ADVERTISER_TOKEN_KEYS).

const MINUTE = 60_000

describe.each(BACKENDS)('advertisers’ accounts on %s', (backend) => {
  let smtp: SmtpTestServer
  let server: TestServer
  let offsetMs = 0

  beforeAll(async () => {
    smtp = await startSmtpTestServer()
    server = await startTestServer(backend, {
      env: advertiserEnv(smtp),
      now: () => Date.now() + offsetMs,
    })
  })
  afterAll(async () => {
    await server?.stop()
    await smtp?.close()
  })

  const signUp = (
    api: AdvertiserClient,
    email: string,
    password = STRONG_PASSWORD,
    locale = 'en',
  ) => api.post('/advertisers/accounts', { email, password, name: 'Léa', company: 'Brand', locale })

  it('refuses a weak password with the spec’s message, and says nothing of the e-mail', async () => {
    const api = advertiserClient(server)
    for (const password of ['password1', 'brand2024', 'Léa Brand']) {
      const res = await signUp(api, newEmail(), password)
      expect(res.status).toBe(400)
      expect(res.body).toMatchObject({
        errors: ['Your password is not strong enough'],
        codes: ['password_not_strong'],
      })
    }
  })

  it('answers a sign-up the same whether the e-mail has an account or not, and mails either way', async () => {
    const api = advertiserClient(server)
    const email = newEmail('twice')
    const first = await signUp(api, email, STRONG_PASSWORD, 'fr')
    expect(first.status).toBe(202)
    expect(first.body).toEqual({})
    const mail = await mailTo(smtp, email, /#verify=/)
    // in the account's language, the link on the shop's own address
    expect(mail.subject).toBe('Confirmez votre adresse e-mail pour Shouts')
    expect(mail.text).toContain('https://shop.example/fr/account#verify=')
    expect(
      (await api.post('/advertisers/accounts/verify', { token: linkToken(mail, 'verify') })).status,
    ).toBe(200)

    const again = await signUp(api, email)
    expect(again.status).toBe(first.status)
    expect(again.body).toEqual(first.body)
    const exists = await mailTo(smtp, email, /already has an advertiser account|déjà un compte/)
    expect(exists.text).not.toContain('#verify=')
  })

  it('changes nothing of an account not verified yet when the e-mail signs up again, in any letter case', async () => {
    const api = advertiserClient(server)
    const email = newEmail('carol')
    expect((await signUp(api, email)).status).toBe(202)
    const token = linkToken(await mailTo(smtp, email, /#verify=/), 'verify')
    // a stranger signs up with the same address, another password, name and language
    const stranger = await api.post('/advertisers/accounts', {
      email: email.toUpperCase(),
      password: 'quartz meadow 5512 falcon ember',
      name: 'Mallory',
      company: 'Elsewhere',
      locale: 'de',
    })
    expect(stranger.status).toBe(202)
    // the owner is told, in the owner's language, with no link to confirm anything
    const note = await mailTo(smtp, email, /first mail/)
    expect(note.subject).toBe('Your Shouts advertiser account waits for your confirmation')
    expect(note.text).toContain('Hello Léa,')
    expect(note.text).not.toContain('#verify=')
    expect(note.text).not.toContain('Mallory')
    // the owner's link still works, and the password is the owner's
    expect((await api.post('/advertisers/accounts/verify', { token })).status).toBe(200)
    const theirs = await api.post('/advertisers/session', {
      email,
      password: 'quartz meadow 5512 falcon ember',
    })
    expect(theirs.status).toBe(401)
    const owner = answerOf(
      advertisers.signIn,
      await api.post('/advertisers/session', {
        email,
        password: STRONG_PASSWORD,
      }),
    )
    expect(owner.account).toMatchObject({ name: 'Léa', company: 'Brand', locale: 'en' })
  })

  it('verifies an e-mail once, by the link’s token only', async () => {
    const api = advertiserClient(server)
    const email = newEmail('verify')
    await signUp(api, email)
    // the account is made after the answer, with the mail
    const token = linkToken(await mailTo(smtp, email, /#verify=/), 'verify')
    // before the link: the right password is told to verify first, a wrong one nothing more
    const early = await api.post('/advertisers/session', { email, password: STRONG_PASSWORD })
    expect(early.status).toBe(403)
    expect(early.body).toMatchObject({ codes: ['email_not_verified'] })
    const wrong = await api.post('/advertisers/session', { email, password: `${STRONG_PASSWORD}!` })
    expect(wrong.status).toBe(401)
    expect(wrong.body).toMatchObject({ errors: ['Invalid username/password combination'] })

    const bad = await api.post('/advertisers/accounts/verify', {
      token: 'not-a-token-of-ours-at-all',
    })
    expect(bad.status).toBe(401)
    expect(bad.body).toMatchObject({ errors: ['Missing or bad token'] })
    const ok = answerOf(
      advertisers.verify,
      await api.post('/advertisers/accounts/verify', { token }),
    )
    expect(ok.accountId).toMatch(/^[0-9a-f-]{36}$/)
    expect((await api.post('/advertisers/accounts/verify', { token })).status).toBe(401)
  })

  it('signs in with a refresh cookie for its path only: HttpOnly, Secure, SameSite=Strict', async () => {
    const { api, session, email } = await signedInAdvertiser(server, smtp)
    expect(session.account.email).toBe(email)
    expect(session.expiresAtEpochMs - (Date.now() + offsetMs)).toBeLessThanOrEqual(15 * MINUTE)
    const again = advertiserClient(server)
    const res = await again.post('/advertisers/session', { email, password: STRONG_PASSWORD })
    const cookie = res.headers.getSetCookie().find((c) => c.includes('shouts_adv_refresh'))
    expect(cookie).toMatch(/^__Secure-shouts_adv_refresh=[\w-]{40,}/)
    expect(cookie).toContain('HttpOnly')
    expect(cookie).toContain('Secure')
    expect(cookie).toContain('SameSite=Strict')
    expect(cookie).toContain('Path=/api/v1/advertisers/session')
    expect(JSON.stringify(res.body)).not.toContain(again.cookie?.split('=')[1] ?? 'none')
    expect((await api.get('/advertisers/campaigns')).status).toBe(200)
  })

  it('tells the pages there is a session to renew, without its secret, until sign-out', async () => {
    const { email } = await signedInAdvertiser(server, smtp)
    const api = advertiserClient(server)
    const signedIn = await api.post('/advertisers/session', { email, password: STRONG_PASSWORD })
    const hint = signedIn.headers.getSetCookie().find((c) => c.startsWith('shouts_adv_signed_in='))
    expect(hint).toMatch(/^shouts_adv_signed_in=1; /)
    expect(hint).toContain('Path=/;')
    expect(hint).not.toContain('HttpOnly')
    const out = await api.delete('/advertisers/session')
    const cleared = out.headers.getSetCookie().find((c) => c.startsWith('shouts_adv_signed_in='))
    expect(cleared).toMatch(/^shouts_adv_signed_in=; /)
  })

  it('refuses a sign-in from another site’s page', async () => {
    const { email } = await signedInAdvertiser(server, smtp)
    const elsewhere = advertiserClient(server, 'https://evil.example')
    const res = await elsewhere.post('/advertisers/session', { email, password: STRONG_PASSWORD })
    expect(res.status).toBe(403)
    expect(res.body).toMatchObject({ codes: ['cross_origin'] })
  })

  it('answers spec §7’s messages for a token missing, malformed, of another key, expired', async () => {
    const { api, session } = await signedInAdvertiser(server, smtp)
    const campaigns = (authorization?: string) =>
      api.get('/advertisers/campaigns', authorization === undefined ? {} : { authorization })
    const none = advertiserClient(server)
    const missing = await none.get('/advertisers/campaigns')
    expect(missing.status).toBe(401)
    expect(missing.body).toMatchObject({ errors: ['Missing authorization context'] })

    for (const value of ['Bearer nonsense', 'Bearer ', 'Bearer a.b.c', 'Basic dXNlcjpwYXNz']) {
      const res = await campaigns(value)
      expect(res.status, value).toBe(401)
      expect(res.body, value).toMatchObject({
        errors: ['Unable to parse a token from this string'],
      })
    }
    // a well-formed token signed with a key the server does not hold
    const forged = await new SignJWT({ fam: 'x' })
      .setProtectedHeader({ alg: 'HS256', kid: 'not-ours' })
      .setSubject(session.account.accountId)
      .setIssuer('shouts')
      .setAudience('shouts-advertisers')
      .setIssuedAt()
      .setExpirationTime('10m')
      .sign(new TextEncoder().encode('x'.repeat(40)))
    expect((await campaigns(`Bearer ${forged}`)).body).toMatchObject({
      codes: ['session_token_unreadable'],
    })
    // any "Bearer " prefix is removed (spec §7): the raw token works too
    expect((await campaigns(session.accessToken)).status).toBe(200)

    offsetMs += 16 * MINUTE
    try {
      const expired = await campaigns()
      expect(expired.status).toBe(401)
      expect(expired.body).toMatchObject({
        errors: ['Failing JWT token read/validate - token expired'],
        codes: ['session_token_expired'],
      })
    } finally {
      offsetMs -= 16 * MINUTE
    }
  })

  it('rotates the refresh cookie; a rotated one used again revokes the whole session', async () => {
    const { api } = await signedInAdvertiser(server, smtp)
    const first = api.cookie as string
    const refreshed = answerOf(advertisers.refresh, await api.post('/advertisers/session/refresh'))
    expect(refreshed.accessToken).toBeTruthy()
    const second = api.cookie as string
    expect(second).not.toBe(first)
    api.token = refreshed.accessToken
    expect((await api.get('/advertisers/campaigns')).status).toBe(200)

    // the first cookie again (stolen, replayed): refused, and the family with it
    const thief = advertiserClient(server)
    thief.cookie = first
    const replay = await thief.post('/advertisers/session/refresh')
    expect(replay.status).toBe(401)
    expect(replay.body).toMatchObject({ errors: ['Missing or bad token'] })
    api.cookie = second
    expect((await api.post('/advertisers/session/refresh')).status).toBe(401)
    const revoked = await api.get('/advertisers/campaigns')
    expect(revoked.status).toBe(401)
    expect(revoked.body).toMatchObject({ codes: ['session_ended'] })
  })

  it('keeps refresh tokens only as their hashes', async () => {
    const { api, session } = await signedInAdvertiser(server, smtp)
    await api.post('/advertisers/session/refresh')
    const token = (api.cookie ?? '').split('=')[1] ?? ''
    expect(token.length).toBeGreaterThanOrEqual(40)
    const rows = await server.deps.database.query(sql<{ hash: string }>`
      select r.token_hash as hash from advertiser_refresh_tokens r
      join advertiser_sessions s on s.family_id = r.family_id
      where s.account_id = ${session.account.accountId}`)
    // the one signed in with and the one it was rotated to
    expect(rows).toHaveLength(2)
    expect(rows.some((r) => r.hash === token)).toBe(false)
    expect(rows.map((r) => r.hash)).toContain(createHash('sha256').update(token).digest('hex'))
  })

  it('refuses a refresh without its cookie, and ends the session at sign-out', async () => {
    const none = advertiserClient(server)
    const missing = await none.post('/advertisers/session/refresh')
    expect(missing.status).toBe(401)
    expect(missing.body).toMatchObject({ errors: ['Missing or bad token'] })

    const { api } = await signedInAdvertiser(server, smtp)
    const cookie = api.cookie
    const out = await api.delete('/advertisers/session')
    expect(out.status).toBe(204)
    expect(api.cookie).toBeNull()
    api.cookie = cookie
    expect((await api.post('/advertisers/session/refresh')).status).toBe(401)
    expect((await api.get('/advertisers/campaigns')).body).toMatchObject({
      codes: ['session_ended'],
    })
  })

  it('resets a password by the mail’s link: the same answer for any e-mail, every session ended', async () => {
    const { api, email } = await signedInAdvertiser(server, smtp, { locale: 'de' })
    const anonymous = advertiserClient(server)
    const unknown = await anonymous.post('/advertisers/password-reset', {
      email: newEmail('nobody'),
    })
    const known = await anonymous.post('/advertisers/password-reset', { email })
    expect(unknown.status).toBe(202)
    expect(known.status).toBe(202)
    expect(unknown.body).toEqual(known.body)
    const mail = await mailTo(smtp, email, /#reset=/)
    expect(mail.subject).toBe('Setzen Sie Ihr Shouts-Passwort zurück')
    const token = linkToken(mail, 'reset')

    const weak = await anonymous.post('/advertisers/password-reset/confirm', {
      token,
      password: 'passwort123',
    })
    expect(weak.status).toBe(400)
    expect(weak.body).toMatchObject({ errors: ['Your password is not strong enough'] })
    const bad = await anonymous.post('/advertisers/password-reset/confirm', {
      token: `${token}x`,
      password: 'gravel tundra 4471 orbit mango',
    })
    expect(bad.status).toBe(401)
    expect(bad.body).toMatchObject({ errors: ['Missing or bad token'] })
    const done = await anonymous.post('/advertisers/password-reset/confirm', {
      token,
      password: 'gravel tundra 4471 orbit mango',
    })
    expect(done.status).toBe(204)
    // the password changed: the sessions of before are over
    expect((await api.get('/advertisers/campaigns')).body).toMatchObject({
      codes: ['session_ended'],
    })
    expect((await api.post('/advertisers/session/refresh')).status).toBe(401)
    expect(
      (await anonymous.post('/advertisers/session', { email, password: STRONG_PASSWORD })).status,
    ).toBe(401)
    const signIn = await anonymous.post('/advertisers/session', {
      email,
      password: 'gravel tundra 4471 orbit mango',
    })
    expect(signIn.status).toBe(200)
    // the link is used up
    expect(
      (
        await anonymous.post('/advertisers/password-reset/confirm', {
          token,
          password: 'another fine 9931 password here',
        })
      ).status,
    ).toBe(401)
  })

  it('answers 429 past ten password resets of an e-mail, whether or not it has an account', async () => {
    const { email } = await signedInAdvertiser(server, smtp)
    const anonymous = advertiserClient(server)
    for (const asked of [email, newEmail('nobody')]) {
      const answers = []
      for (let i = 0; i < 11; i++) {
        answers.push(await anonymous.post('/advertisers/password-reset', { email: asked }))
      }
      expect(answers.slice(0, 10).map((a) => a.status)).toEqual(Array(10).fill(202))
      expect(answers[10]?.status).toBe(429)
      expect(answers[10]?.body).toMatchObject({ codes: ['too_many_requests'] })
      expect(answers[10]?.headers.get('retry-after')).toMatch(/^\d+$/)
    }
  })

  it('limits failed sign-ins per account from an address, like the console', async () => {
    const { email } = await signedInAdvertiser(server, smtp)
    const guesser = advertiserClient(server)
    const tries = []
    for (let i = 0; i < 11; i++) {
      tries.push(await guesser.post('/advertisers/session', { email, password: `guess ${i}` }))
    }
    expect(tries.slice(0, 10).map((t) => t.status)).toEqual(Array(10).fill(401))
    expect(tries[10]?.status).toBe(429)
    expect(tries[10]?.headers.get('retry-after')).toMatch(/^\d+$/)
  })
  it('accepts a token signed with the previous key while both are set, and refuses it once that key is dropped', async () => {
    const OLD = 'o'.repeat(32)
    const NEW = 'n'.repeat(32)
    let keyed = await startTestServer(backend, {
      env: { ...advertiserEnv(smtp), ADVERTISER_TOKEN_KEYS: OLD },
    })
    try {
      const { session, email } = await signedInAdvertiser(keyed, smtp)
      const campaignsWith = (token: string) =>
        advertiserClient(keyed).get('/advertisers/campaigns', { authorization: `Bearer ${token}` })
      expect((await campaignsWith(session.accessToken)).status).toBe(200)

      keyed = await keyed.restart({ env: { ADVERTISER_TOKEN_KEYS: `${NEW},${OLD}` } })
      expect((await campaignsWith(session.accessToken)).status).toBe(200)
      const fresh = answerOf(
        advertisers.signIn,
        await advertiserClient(keyed).post('/advertisers/session', {
          email,
          password: STRONG_PASSWORD,
        }),
      )

      keyed = await keyed.restart({ env: { ADVERTISER_TOKEN_KEYS: NEW } })
      const refused = await campaignsWith(session.accessToken)
      expect(refused.status).toBe(401)
      expect(refused.body).toMatchObject({ errors: ['Unable to parse a token from this string'] })
      // signed with the new key: signs nobody out
      expect((await campaignsWith(fresh.accessToken)).status).toBe(200)
    } finally {
      await keyed.stop()
    }
  })
})

// What a stranger can time: the answer to a sign-up or a reset is the same work whatever the e-mail
// (the request stored); the account, the link and the mail come after it, from the
// `advertiser-requests` job. The jobs here run only when the test runs them, so what the answer did
// is all there is until then. `npm run bench:account-timing` prints the times.
describe.each(BACKENDS)(
  'advertisers’ sign-ups and resets on %s, their work after the answer',
  (backend) => {
    let smtp: SmtpTestServer
    let server: TestServer

    beforeAll(async () => {
      smtp = await startSmtpTestServer()
      server = await startTestServer(backend, {
        env: advertiserEnv(smtp),
        clock: createManualClock(Date.now()),
      })
      await server.deps.jobs.idle()
    })
    afterAll(async () => {
      await server?.stop()
      await smtp?.close()
    })

    const work = async () => {
      await server.deps.jobs.runNow('advertiser-requests')
      await server.deps.jobs.runNow('mail-sender')
    }
    const signUp = (api: AdvertiserClient, email: string) =>
      api.post('/advertisers/accounts', {
        email,
        password: STRONG_PASSWORD,
        name: 'Léa',
        company: 'Brand',
        locale: 'en',
      })
    /** What a client sees of an answer: its status, body and headers (but the date and its id). */
    const seen = (reply: { status: number; body: unknown; headers: Headers }) => ({
      status: reply.status,
      body: reply.body,
      headers: [...reply.headers].filter(([name]) => name !== 'date' && name !== 'x-request-id'),
    })
    const accounts = async (email: string) =>
      (
        await server.deps.database.query(sql<{ links: number }>`
        select (select count(*) from advertiser_links l where l.account_id = a.account_id)::int
          as links
        from advertiser_accounts a where lower(a.email) = lower(${email})`)
      ).map((a) => a.links)
    const verified = async (api: AdvertiserClient) => {
      const email = newEmail('known')
      await signUp(api, email)
      await work()
      const token = linkToken(await mailTo(smtp, email, /#verify=/), 'verify')
      expect((await api.post('/advertisers/accounts/verify', { token })).status).toBe(200)
      return email
    }

    it('answers a reset alike for an e-mail with an account and one without, and makes the link after', async () => {
      const api = advertiserClient(server)
      const known = await verified(api)
      const [linksBefore] = await accounts(known)
      const forKnown = await api.post('/advertisers/password-reset', { email: known })
      const forUnknown = await api.post('/advertisers/password-reset', {
        email: newEmail('nobody'),
      })
      expect(forKnown.status).toBe(202)
      expect(seen(forKnown)).toEqual(seen(forUnknown))
      // the answer made no link: the known e-mail's request waits like the unknown one's
      expect(await accounts(known)).toEqual([linksBefore])
      await work()
      expect(await accounts(known)).toEqual([(linksBefore ?? 0) + 1])
      expect(linkToken(await mailTo(smtp, known, /#reset=/), 'reset')).toBeTruthy()
    })

    it('answers a sign-up alike for a new e-mail, one not verified and one verified, and makes the account after', async () => {
      const api = advertiserClient(server)
      const known = await verified(api)
      const pending = newEmail('pending')
      await signUp(api, pending)
      await work()
      await mailTo(smtp, pending, /#verify=/)
      const fresh = newEmail('fresh')
      const answers = [
        await signUp(api, known),
        await signUp(api, pending),
        await signUp(api, fresh),
      ]
      expect(answers[0]?.status).toBe(202)
      for (const answer of answers) expect(seen(answer)).toEqual(seen(answers[0] as typeof answer))
      // no account for the new e-mail yet, nothing more for the others
      expect(await accounts(fresh)).toEqual([])
      expect(await accounts(pending)).toEqual([1])
      await work()
      expect(await accounts(fresh)).toEqual([1])
      expect(await accounts(pending)).toEqual([1])
      await mailTo(smtp, fresh, /#verify=/)
      await mailTo(smtp, pending, /first mail/)
      await mailTo(smtp, known, /already has an advertiser account/)
    })

    it('sends one working reset link when a request’s lease ran out while an instance still held it', async () => {
      const api = advertiserClient(server)
      const email = await verified(api)
      // another instance's worker: it claims the request, then stalls before its work, past its
      // lease (its clock two minutes behind: the lease has run out as it claims), while this
      // instance claims the request again and does it
      const db = server.deps.database
      let stalled = () => {}
      const atWork = new Promise<void>((resolve) => {
        stalled = resolve
      })
      let resume = () => {}
      const resumed = new Promise<void>((resolve) => {
        resume = resolve
      })
      const slow: Database = {
        ...db,
        transaction: async (fn) => {
          stalled()
          await resumed
          return db.transaction(fn)
        },
      }
      const other = createAccountRequests({
        database: slow,
        mails: createAdvertiserMails(server.deps.mail),
        log: createLogger('error', {}, () => {}),
        now: () => Date.now() - 2 * MINUTE,
      })
      expect((await api.post('/advertisers/password-reset', { email })).status).toBe(202)
      const late = other.run()
      await atWork
      await work()
      resume()
      await late
      await server.deps.jobs.runNow('mail-sender')
      const resets = smtp.received.filter(
        (m) => m.text?.includes('#reset=') && JSON.stringify(m.to).includes(email),
      )
      expect(resets).toHaveLength(1)
      const confirmed = await api.post('/advertisers/password-reset/confirm', {
        token: linkToken(resets[0] as (typeof resets)[number], 'reset'),
        password: 'gravel tundra 4471 orbit mango',
      })
      expect(confirmed.status).toBe(204)
    })
  },
)
