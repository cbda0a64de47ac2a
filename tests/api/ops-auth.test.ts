import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { ops } from '../../src/contract/ops/orders.ts'
import { sql } from '../../src/server/platform/db/sql.ts'
import { answerOf, BACKENDS, client, startTestServer, type TestServer } from './helpers.ts'
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
    const me = answerOf(ops.session, await clientWith(server.url, { cookie }).get('/ops/session'))
    expect(me).toEqual({ email, role: 'reviewer' })
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
  const METRICS = 'metrics-token-for-the-tests-0123'
  const from = (address: string) =>
    clientWith(server.url, { origin: server.url, 'x-forwarded-for': address })
  beforeAll(async () => {
    server = await startTestServer('pglite', {
      now,
      env: { TRUST_PROXY: '1', METRICS_TOKEN: METRICS },
    })
  })
  afterAll(async () => {
    await server?.stop()
  })
  const passwordWork = async (kind: 'hash' | 'check', outcome: 'run' | 'refused') => {
    const res = await fetch(`${server.url}/api/v1/metrics`, {
      headers: { authorization: `Bearer ${METRICS}` },
    })
    const line = (await res.text())
      .split('\n')
      .find((l) => l.startsWith(`shouts_password_work_total{kind="${kind}",outcome="${outcome}"}`))
    return Number(line?.split(' ').pop())
  }
  const limitedAudits = (email: string) =>
    server.deps.database.query(sql<{ scope: string }>`
      select detail->>'scope' as scope from audit_log where action = 'sign_in_limited'
        and detail->>'email' = ${email.toLowerCase()} order by id`)

  it('ten wrong passwords from one address hold that address, not the owner signing in elsewhere', async () => {
    const { email } = await signedInOperator(server, 'reviewer')
    const attacker = from('198.51.100.20')
    for (let i = 0; i < 10; i++) {
      const res = await attacker.post('/ops/session', { email, password: `wrong password ${i}` })
      expect(res.status).toBe(401)
    }
    const held = await attacker.post('/ops/session', { email, password: OPS_PASSWORD })
    expect(held.status).toBe(429)
    expect(held.headers.get('retry-after')).toMatch(/^\d+$/)
    expect(held.body).toMatchObject({ codes: ['sign_in_limited'] })
    // the owner, at their own address, signs in
    expect(
      (await from('192.0.2.44').post('/ops/session', { email, password: OPS_PASSWORD })).status,
    ).toBe(204)
    // the refusals are audited once a window, not once each
    await attacker.post('/ops/session', { email, password: OPS_PASSWORD })
    expect((await limitedAudits(email)).map((r) => r.scope)).toEqual(['account_at_address'])
    shift = 15 * 60_000 + 1000
    try {
      expect((await attacker.post('/ops/session', { email, password: OPS_PASSWORD })).status).toBe(
        204,
      )
    } finally {
      shift = 0
    }
  })

  it('guessing one account from many addresses stops after 100 failures, and is audited', async () => {
    const { email } = await signedInOperator(server, 'admin')
    for (let i = 0; i < 100; i++) {
      const res = await from(`10.1.${i >> 8}.${i & 255}`).post('/ops/session', {
        email,
        password: `guess ${i}`,
      })
      expect(res.status).toBe(401)
    }
    const fresh = from('10.2.0.1')
    const stopped = await fresh.post('/ops/session', { email, password: OPS_PASSWORD })
    expect(stopped.status).toBe(429)
    expect(stopped.body).toMatchObject({ codes: ['sign_in_limited'] })
    expect((await limitedAudits(email)).map((r) => r.scope)).toEqual(['account'])
    shift = 15 * 60_000 + 1000
    try {
      expect((await fresh.post('/ops/session', { email, password: OPS_PASSWORD })).status).toBe(204)
    } finally {
      shift = 0
    }
  })

  it('limits one address over many accounts, and successes do not count', async () => {
    const a = from('203.0.113.7')
    const b = from('203.0.113.8')
    const { email } = await signedInOperator(server, 'admin')
    for (let i = 0; i < 12; i++) {
      expect((await a.post('/ops/session', { email, password: OPS_PASSWORD })).status).toBe(204)
    }
    for (let i = 0; i < 30; i++) {
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

  it('counts an IPv6 client by its /64: new addresses in it are the same client', async () => {
    const { email } = await signedInOperator(server, 'reviewer')
    for (let i = 1; i <= 10; i++) {
      const res = await from(`2001:db8:7:7::${i.toString(16)}`).post('/ops/session', {
        email,
        password: `wrong password ${i}`,
      })
      expect(res.status).toBe(401)
    }
    const sameNetwork = from('2001:db8:7:7:ffff:1:2:3')
    expect((await sameNetwork.post('/ops/session', { email, password: OPS_PASSWORD })).status).toBe(
      429,
    )
    expect(
      (await from('2001:db8:7:8::1').post('/ops/session', { email, password: OPS_PASSWORD }))
        .status,
    ).toBe(204)
  })

  it('a made-up set-password link costs no password hash, and an address gets 10 tries', async () => {
    const hashes = await passwordWork('hash', 'run')
    const guesser = from('198.51.100.99')
    for (let i = 0; i < 10; i++) {
      const res = await guesser.post('/ops/set-password', {
        token: `made-up-token-${i}-0123456789abcdefghij`,
        password: OPS_PASSWORD,
      })
      expect(res.status).toBe(400)
      expect(res.body).toMatchObject({ codes: ['link_invalid'] })
    }
    expect(await passwordWork('hash', 'run')).toBe(hashes)
    const held = await guesser.post('/ops/set-password', {
      token: 'made-up-token-10-0123456789abcdefghij',
      password: OPS_PASSWORD,
    })
    expect(held.status).toBe(429)
    expect(held.body).toMatchObject({ codes: ['too_many_requests'] })
    expect(held.headers.get('retry-after')).toMatch(/^\d+$/)
    // a real link from another address still works, and is hashed once
    const { token } = await newOperator(server, 'reviewer')
    const set = await from('192.0.2.45').post('/ops/set-password', {
      token,
      password: OPS_PASSWORD,
    })
    expect(set.status).toBe(204)
    expect(await passwordWork('hash', 'run')).toBe(hashes + 1)
  })

  it('sets a Secure __Host- cookie when a trusted proxy says the client came over HTTPS, and reads only that one', async () => {
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
    // over HTTPS only the prefixed cookie is read: the same id planted without the prefix (by a
    // sibling subdomain, or over plain HTTP) opens nothing
    const id = (sessionCookieOf(ok.headers) as string).split('=')[1] as string
    const overHttps = (cookie: string) =>
      clientWith(server.url, { 'x-forwarded-proto': 'https', cookie }).get('/ops/session')
    expect((await overHttps(`__Host-shouts_ops=${id}`)).status).toBe(200)
    const planted = await overHttps(`shouts_ops=${id}`)
    expect(planted.status).toBe(401)
    expect(planted.body).toMatchObject({ codes: ['sign_in_required'] })
  })
})
