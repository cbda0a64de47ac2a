import { execFileSync } from 'node:child_process'
import {
  createDecipheriv,
  createECDH,
  createPublicKey,
  hkdfSync,
  randomBytes,
  verify,
} from 'node:crypto'
import { Agent, createServer, type Server } from 'node:https'
import type { AddressInfo } from 'node:net'

// A push service on loopback, as a browser's would be (FCM, Mozilla's autopush, Apple's): it hands
// out subscriptions the way a browser's PushManager.subscribe does (an endpoint here, and the
// browser's P-256 key pair and auth secret, which only this stand-in holds), and when a message is
// posted to an endpoint it checks the VAPID signature (RFC 8292) and decrypts the body with the
// subscription's private key (RFC 8291 on RFC 8188's aes128gcm), written here with node:crypto's ECDH
// and HKDF, not with the web-push library the server sends with. Each message is recorded with the
// instant of the test's clock it arrived at, its TTL and urgency. HTTPS with a certificate for
// 127.0.0.1 made at each start (no key is kept anywhere): `agent` trusts it.

/** A new self-signed P-256 certificate for 127.0.0.1, valid a day, and its key (PEM), by openssl. */
function loopbackCertificate(): { cert: string; key: string } {
  const pem = execFileSync(
    'openssl',
    [
      'req',
      '-x509',
      '-newkey',
      'ec',
      '-pkeyopt',
      'ec_paramgen_curve:prime256v1',
      '-nodes',
      '-days',
      '1',
      '-subj',
      '/CN=push stand-in',
      '-addext',
      'subjectAltName=IP:127.0.0.1',
      '-keyout',
      '-',
      '-out',
      '-',
    ],
    { encoding: 'utf8', stdio: ['ignore', 'pipe', 'pipe'] },
  )
  const block = (label: RegExp) => pem.match(label)?.[0] ?? ''
  const cert = block(/-----BEGIN CERTIFICATE-----[\s\S]+?-----END CERTIFICATE-----\n/)
  const key = block(/-----BEGIN PRIVATE KEY-----[\s\S]+?-----END PRIVATE KEY-----\n/)
  if (!cert || !key) throw new Error('openssl made no certificate for the push stand-in')
  return { cert, key }
}

export type StandInSubscription = {
  endpoint: string
  expirationTime: null
  keys: { p256dh: string; auth: string }
}

export type ReceivedPush = {
  /** The stand-in's id of the subscription the message was posted to. */
  subscription: string
  /** The test's clock when it arrived. */
  atEpochMs: number
  ttlSeconds: number
  urgency: string | null
  /** The VAPID public key it was signed with (k=). */
  vapidKey: string
  /** The decrypted body. */
  text: string
  json: unknown
}

type Keys = { ecdh: ReturnType<typeof createECDH>; auth: Buffer; publicKey: Buffer }

export type PushStandIn = {
  origin: string
  /** host:port, for PUSH_SERVICE_HOSTS */
  host: string
  /** An https.Agent that trusts the stand-in's certificate (the server's sends go through it). */
  agent: Agent
  /** A new subscription, as PushSubscription.toJSON() gives it. */
  subscribe(): StandInSubscription & { id: string }
  /** Answer this status (once, or always) to the next message posted to the subscription. */
  answer(id: string, status: number, times?: number): void
  received(): ReceivedPush[]
  /** The messages the stand-in refused, and why (a bad signature, an undecryptable body). */
  refused(): string[]
  close(): Promise<void>
}

const b64u = (buf: Buffer) => buf.toString('base64url')

/** RFC 8291 §3.4 and RFC 8188 §2: the plaintext of an aes128gcm body, for the subscription's keys. */
export function decryptAes128gcm(body: Buffer, keys: Keys): Buffer {
  const salt = body.subarray(0, 16)
  const recordSize = body.readUInt32BE(16)
  const idLength = body.readUInt8(20)
  const senderPublic = body.subarray(21, 21 + idLength)
  const records = body.subarray(21 + idLength)
  const ecdhSecret = keys.ecdh.computeSecret(senderPublic)
  const keyInfo = Buffer.concat([Buffer.from('WebPush: info\0'), keys.publicKey, senderPublic])
  const ikm = Buffer.from(hkdfSync('sha256', ecdhSecret, keys.auth, keyInfo, 32))
  const cek = Buffer.from(
    hkdfSync('sha256', ikm, salt, Buffer.from('Content-Encoding: aes128gcm\0'), 16),
  )
  const baseNonce = Buffer.from(
    hkdfSync('sha256', ikm, salt, Buffer.from('Content-Encoding: nonce\0'), 12),
  )
  const parts: Buffer[] = []
  for (let seq = 0, at = 0; at < records.length; seq++, at += recordSize) {
    const record = records.subarray(at, Math.min(records.length, at + recordSize))
    const nonce = Buffer.from(baseNonce)
    // RFC 8188 §2.3: the record's sequence number XORed into the nonce's last bytes
    nonce.writeUInt32BE((nonce.readUInt32BE(8) ^ seq) >>> 0, 8)
    const decipher = createDecipheriv('aes-128-gcm', cek, nonce)
    decipher.setAuthTag(record.subarray(record.length - 16))
    const plain = Buffer.concat([
      decipher.update(record.subarray(0, record.length - 16)),
      decipher.final(),
    ])
    // padding: the delimiter (2 in the last record, 1 before) then zeros
    let end = plain.length - 1
    while (end >= 0 && plain[end] === 0) end--
    if (end < 0 || (plain[end] !== 1 && plain[end] !== 2)) throw new Error('no padding delimiter')
    parts.push(plain.subarray(0, end))
  }
  return Buffer.concat(parts)
}

/** RFC 8292: `vapid t=<JWT>, k=<key>`, the JWT signed with ES256 by that key, for this origin. */
function checkVapid(header: string | undefined, audience: string, nowMs: number): string {
  const match = header?.match(/^vapid t=([\w-]+\.[\w-]+\.[\w-]+),\s*k=([\w-]+)$/)
  if (!match) throw new Error(`no VAPID authorization: ${header}`)
  const [, token = '', key = ''] = match
  const [head = '', claims = '', signature = ''] = token.split('.')
  const raw = Buffer.from(key, 'base64url')
  const publicKey = createPublicKey({
    key: {
      kty: 'EC',
      crv: 'P-256',
      x: b64u(raw.subarray(1, 33)),
      y: b64u(raw.subarray(33, 65)),
    },
    format: 'jwk',
  })
  const signed = verify(
    'sha256',
    Buffer.from(`${head}.${claims}`),
    { key: publicKey, dsaEncoding: 'ieee-p1363' },
    Buffer.from(signature, 'base64url'),
  )
  if (!signed) throw new Error('VAPID signature does not verify')
  const body = JSON.parse(Buffer.from(claims, 'base64url').toString()) as {
    aud?: string
    exp?: number
    sub?: string
  }
  if (body.aud !== audience) throw new Error(`VAPID aud ${body.aud}, expected ${audience}`)
  // RFC 8292 §2: at most 24 hours ahead (checked against the real time: the JWT is signed by it)
  if (!body.exp || body.exp * 1000 < nowMs || body.exp * 1000 > nowMs + 24 * 3_600_000 + 60_000)
    throw new Error(`VAPID exp ${body.exp} out of range`)
  if (!body.sub || !/^(mailto:|https:)/.test(body.sub)) throw new Error(`VAPID sub ${body.sub}`)
  return key
}

export async function startPushStandIn(clock: () => number = Date.now): Promise<PushStandIn> {
  const { cert, key } = loopbackCertificate()
  const subscriptions = new Map<string, Keys>()
  const answers = new Map<string, { status: number; times: number }>()
  const received: ReceivedPush[] = []
  const refused: string[] = []
  let origin = ''

  const server: Server = createServer({ cert, key }, (req, res) => {
    const chunks: Buffer[] = []
    req.on('data', (c: Buffer) => chunks.push(c))
    req.on('end', () => {
      const id = req.url?.match(/^\/push\/([\w-]+)$/)?.[1]
      const keys = id ? subscriptions.get(id) : undefined
      if (req.method !== 'POST' || !id || !keys) {
        res.writeHead(404).end()
        return
      }
      const planned = answers.get(id)
      if (planned && planned.times > 0) {
        planned.times--
        res.writeHead(planned.status).end()
        return
      }
      try {
        if (req.headers['content-encoding'] !== 'aes128gcm')
          throw new Error(`content-encoding ${req.headers['content-encoding']}`)
        const ttl = req.headers.ttl
        if (ttl === undefined || !/^\d+$/.test(String(ttl))) throw new Error(`TTL ${ttl}`)
        const vapidKey = checkVapid(req.headers.authorization, origin, Date.now())
        const text = decryptAes128gcm(Buffer.concat(chunks), keys).toString('utf8')
        let json: unknown = null
        try {
          json = JSON.parse(text)
        } catch {}
        received.push({
          subscription: id,
          atEpochMs: clock(),
          ttlSeconds: Number(ttl),
          urgency: (req.headers.urgency as string | undefined) ?? null,
          vapidKey,
          text,
          json,
        })
        res.writeHead(201, { location: `/message/${received.length}` }).end()
      } catch (error) {
        refused.push((error as Error).message)
        res.writeHead(400).end()
      }
    })
  })
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
  const { port } = server.address() as AddressInfo
  origin = `https://127.0.0.1:${port}`

  const add = (ecdh: ReturnType<typeof createECDH>, auth: Buffer) => {
    const id = randomBytes(12).toString('base64url')
    const publicKey = ecdh.getPublicKey()
    subscriptions.set(id, { ecdh, auth, publicKey })
    return {
      id,
      endpoint: `${origin}/push/${id}`,
      expirationTime: null,
      keys: { p256dh: b64u(publicKey), auth: b64u(auth) },
    }
  }

  return {
    origin,
    host: `127.0.0.1:${port}`,
    agent: new Agent({ ca: cert }),
    subscribe() {
      const ecdh = createECDH('prime256v1')
      ecdh.generateKeys()
      return add(ecdh, randomBytes(16))
    },
    answer(id, status, times = 1) {
      answers.set(id, { status, times })
    },
    received: () => [...received],
    refused: () => [...refused],
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections()
        server.close(() => resolve())
      }),
  }
}
