import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { sql } from '../../src/server/platform/db/sql.ts'
import { BACKENDS, client, startTestServer, type TestServer } from './helpers.ts'
import {
  clientWith,
  newOperator,
  OPS_PASSWORD,
  sessionCookieOf,
  signedInOperator,
} from './ops-helpers.ts'

// The one-time link, argon2id passwords, sessions in a cookie,
// sign-out, 12 h idle, the limits on failed sign-ins, and the Origin check (decision 017).

const HOUR = 3_600_000

describe.each(BACKENDS)('operators and sign-in on %s', (backend) => {
  let server: TestServer
  let shift = 0
  const now = () => Date.now() + shift
  beforeAll(async () => {
    server = await startTestServer(backend, { now })
  })
  afterAll(async () => {
    await server?.stop()
  })
  const anon = () => clientWith(server.url, { origin: server.url })

  it('sets a password once from the link, stores it as argon2id, and signs in', async () => {
    const { email, token } = await newOperator(server, 'reviewer')
    const weak = await anon().post('/ops/set-password', { token, password: 'short' })
    expect(weak.status).toBe(400)
    expect(weak.body).toMatchObject({ codes: ['password_weak'] })
    expect(JSON.stringify(weak.body)).toMatch(/at least 12 characters/)
    expect((await anon().post('/ops/set-password', { token, password: OPS_PASSWORD })).status).toBe(
      204,
    )
    const again = await anon().post('/ops/set-password', { token, password: OPS_PASSWORD })
    expect(again.status).toBe(400)
    expect(again.body).toMatchObject({ codes: ['link_invalid'] })
    const [row] = await server.deps.database.query(sql<{ hash: string }>`
      select password_hash as hash from operators where email = ${email}`)
    expect(row?.hash).toMatch(/^\$argon2id\$/)

    const signIn = await anon().post('/ops/session', {
      email: email.toUpperCase(),
      password: OPS_PASSWORD,
    })
    expect(signIn.status).toBe(204)
    const setCookie = signIn.headers.getSetCookie().join('\n')
    expect(setCookie).toMatch(/^shouts_ops=[\w-]{40,};/)
    expect(setCookie).toMatch(/HttpOnly/)
    expect(setCookie).toMatch(/SameSite=Strict/)
    expect(setCookie).toMatch(/Path=\//)
    const cookie = sessionCookieOf(signIn.headers) as string
    const me = await clientWith(server.url, { cookie }).get('/ops/session')
    expect(me.status).toBe(200)
    expect(me.body).toEqual({ email, role: 'reviewer' })
    // the session id is stored only as its hash
    const id = cookie.split('=')[1] as string
    const stored = await server.deps.database.query(sql`
      select 1 from operator_sessions where id_hash = ${id}`)
    expect(stored).toHaveLength(0)
  })

  it('refuses a link after 24 hours, and an older link once a new one is made', async () => {
    const { email, token } = await newOperator(server, 'admin')
    shift = 24 * HOUR + 1000
    try {
      const late = await anon().post('/ops/set-password', { token, password: OPS_PASSWORD })
      expect(late.status).toBe(400)
      expect(late.body).toMatchObject({ codes: ['link_invalid'] })
    } finally {
      shift = 0
    }
    const reset = await server.deps.auth.resetLink(email)
    if (!reset.ok) throw new Error('reset failed')
    const newer = await server.deps.auth.resetLink(email)
    if (!newer.ok) throw new Error('reset failed')
    const old = await anon().post('/ops/set-password', {
      token: reset.value.token,
      password: OPS_PASSWORD,
    })
    expect(old.status).toBe(400)
    expect(
      (await anon().post('/ops/set-password', { token: newer.value.token, password: OPS_PASSWORD }))
        .status,
    ).toBe(204)
  })

  it('answers a wrong password and an unknown e-mail alike', async () => {
    const { email } = await signedInOperator(server, 'reviewer')
    const wrong = await anon().post('/ops/session', { email, password: 'not the password!' })
    const unknown = await anon().post('/ops/session', {
      email: 'nobody@shouts.example',
      password: 'not the password!',
    })
    expect(wrong.status).toBe(401)
    expect(unknown.status).toBe(401)
    expect(wrong.body).toEqual(unknown.body)
    expect(wrong.body).toEqual({
      errors: ['Wrong e-mail or password'],
      codes: ['wrong_credentials'],
    })
    expect(sessionCookieOf(wrong.headers)).toBeNull()
  })

  it('ends a session at sign-out and after 12 hours idle', async () => {
    const a = await signedInOperator(server, 'reviewer')
    expect((await a.api.get('/ops/session')).status).toBe(200)
    const out = await a.api.call('DELETE', '/ops/session')
    expect(out.status).toBe(204)
    expect(out.headers.getSetCookie().join()).toMatch(/shouts_ops=;/)
    expect((await a.api.get('/ops/session')).status).toBe(401)

    const b = await signedInOperator(server, 'reviewer')
    shift = 11 * HOUR
    try {
      expect((await b.api.get('/ops/session')).status).toBe(200)
      shift = 11 * HOUR + 12 * HOUR - 60_000
      // seen at 11 h: still alive 12 h later less a minute
      expect((await b.api.get('/ops/session')).status).toBe(200)
      shift = 11 * HOUR + 24 * HOUR
      const idle = await b.api.get('/ops/session')
      expect(idle.status).toBe(401)
      expect(idle.body).toEqual({ errors: ['Sign in to continue'], codes: ['sign_in_required'] })
    } finally {
      shift = 0
    }
  })

  it('refuses sign-in and set-password from another Origin, or without one', async () => {
    const { email, token } = await newOperator(server, 'reviewer')
    const evil = clientWith(server.url, { origin: 'https://evil.example' })
    const res = await evil.post('/ops/set-password', { token, password: OPS_PASSWORD })
    expect(res.status).toBe(403)
    expect(res.body).toMatchObject({ codes: ['cross_origin'] })
    const none = await client(server.url).post('/ops/session', { email, password: OPS_PASSWORD })
    expect(none.status).toBe(403)
  })
})

describe('sign-in limits, behind a trusted proxy', () => {
  let server: TestServer
  let shift = 0
  const now = () => Date.now() + shift
  const anon = () => clientWith(server.url, { origin: server.url })
  beforeAll(async () => {
    server = await startTestServer('pglite', { now, env: { TRUST_PROXY: '1' } })
  })
  afterAll(async () => {
    await server?.stop()
  })

  it('limits failed sign-ins per account: 10 in 15 minutes, then 429 even with the password', async () => {
    const { email } = await signedInOperator(server, 'reviewer')
    // each failure from another address: only the account's counter is reached
    for (let i = 0; i < 10; i++) {
      const res = await anon().post(
        '/ops/session',
        { email, password: `wrong password ${i}` },
        { 'x-forwarded-for': `10.0.0.${i}` },
      )
      expect(res.status).toBe(401)
    }
    const limited = await anon().post('/ops/session', { email, password: OPS_PASSWORD })
    expect(limited.status).toBe(429)
    expect(limited.headers.get('retry-after')).toMatch(/^\d+$/)
    expect(limited.body).toMatchObject({ codes: ['sign_in_limited'] })
    expect((await anon().post('/ops/session', { email, password: OPS_PASSWORD })).status).toBe(429)
    // the refusals are audited once a window, not once each
    const audited = await server.deps.database.query(sql`
      select 1 from audit_log where action = 'sign_in_limited'
        and detail->>'email' = ${email.toLowerCase()}`)
    expect(audited).toHaveLength(1)
    shift = 15 * 60_000 + 1000
    try {
      expect((await anon().post('/ops/session', { email, password: OPS_PASSWORD })).status).toBe(
        204,
      )
    } finally {
      shift = 0
    }
  })

  it('limits one address over many accounts, and successes do not count', async () => {
    const a = clientWith(server.url, { origin: server.url, 'x-forwarded-for': '203.0.113.7' })
    const b = clientWith(server.url, { origin: server.url, 'x-forwarded-for': '203.0.113.8' })
    const { email } = await signedInOperator(server, 'admin')
    for (let i = 0; i < 12; i++) {
      expect((await a.post('/ops/session', { email, password: OPS_PASSWORD })).status).toBe(204)
    }
    for (let i = 0; i < 10; i++) {
      const res = await a.post('/ops/session', {
        email: `guess-${i}@shouts.example`,
        password: 'not the password!',
      })
      expect(res.status).toBe(401)
    }
    expect((await a.post('/ops/session', { email, password: OPS_PASSWORD })).status).toBe(429)
    // another address is not limited
    expect((await b.post('/ops/session', { email, password: OPS_PASSWORD })).status).toBe(204)
  })

  it('sets a Secure __Host- cookie when a trusted proxy says the client came over HTTPS', async () => {
    const { email } = await signedInOperator(server, 'reviewer')
    const host = new URL(server.url).host
    const res = await clientWith(server.url, {
      origin: `http://${host}`,
      'x-forwarded-proto': 'https',
    }).post('/ops/session', { email, password: OPS_PASSWORD })
    // the Origin must be the request's own: https through this proxy
    expect(res.status).toBe(403)
    const ok = await clientWith(server.url, {
      origin: `https://${host}`,
      'x-forwarded-proto': 'https',
    }).post('/ops/session', { email, password: OPS_PASSWORD })
    expect(ok.status).toBe(204)
    const setCookie = ok.headers.getSetCookie().join('\n')
    expect(setCookie).toMatch(/^__Host-shouts_ops=/)
    expect(setCookie).toMatch(/Secure/)
  })
})
