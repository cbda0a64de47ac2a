import { randomUUID } from 'node:crypto'
import type { ParsedMail } from 'mailparser'
import {
  type AdvertiserSession,
  advertisers,
  type Campaign,
  type CampaignDraft,
} from '../../src/contract/advertisers.ts'
import { type Play, player, type ScheduleItem } from '../../src/contract/player.ts'
import { answerOf, type Client, type Reply, replyOf, type TestServer } from './helpers.ts'
import type { SmtpTestServer } from './smtp-test-server.ts'

// Advertisers in API tests: signed up through POST /advertisers/accounts, verified with the link the
// mail carries (read from the SMTP server in the test process), signed in through POST
// /advertisers/session. The client then sends the bearer token (and the shop's Origin, as a browser
// would); it keeps the refresh cookie the way a browser would for its path.

/** A password zxcvbn scores 4: long, of unrelated words and digits. */
export const STRONG_PASSWORD = 'plum kayak vortex 1987 lantern'
/** The shop's public origin in these tests (PUBLIC_BASE_URL): the mails' links and the Origin. */
export const SHOP = 'https://shop.example'

export const advertiserEnv = (smtp: SmtpTestServer | null) => ({
  ...(smtp ? { SMTP_URL: smtp.url } : {}),
  MAIL_POLL_SECONDS: '0.05',
  PUBLIC_BASE_URL: SHOP,
})

let counter = 0
export const newEmail = (name = 'ad') => `${name}-${process.pid}-${++counter}@brand.example`

export type AdvertiserClient = Client & {
  /** The refresh cookie's name=value as the server last set it, or null. */
  cookie: string | null
  /** The access token sent as `Authorization: Bearer`, or null. */
  token: string | null
  /** The Origin it sends (the shop's pages' own). */
  origin: string
  patch<T = unknown>(path: string, body: unknown): Promise<Reply<T>>
  delete<T = unknown>(path: string): Promise<Reply<T>>
}

/** The refresh cookie (name=value) a Set-Cookie answer sets, '' when it clears it, else undefined. */
export function refreshCookieOf(headers: Headers): string | null | undefined {
  const set = headers.getSetCookie().find((c) => /^(__Secure-)?shouts_adv_refresh=/.test(c))
  if (!set) return undefined
  const pair = set.split(';')[0] as string
  return pair.endsWith('=') ? null : pair
}

/** A client of the advertisers' API that keeps its refresh cookie and sends its bearer token. */
export function advertiserClient(server: TestServer, origin = SHOP): AdvertiserClient {
  const self: AdvertiserClient = {
    baseUrl: server.url,
    cookie: null,
    token: null,
    origin,
    async call<T>(
      method: string,
      path: string,
      body?: unknown,
      extra: Record<string, string> = {},
    ) {
      const headers: Record<string, string> = { origin, ...extra }
      if (self.token && !('authorization' in extra)) headers.authorization = `Bearer ${self.token}`
      if (self.cookie && path.startsWith('/advertisers/session')) headers.cookie = self.cookie
      const init: RequestInit = { method, headers }
      if (body !== undefined) {
        init.body = JSON.stringify(body)
        headers['content-type'] = 'application/json'
      }
      const res = await fetch(`${server.url}/api/v1${path}`, init)
      const set = refreshCookieOf(res.headers)
      if (set !== undefined) self.cookie = set
      const text = await res.text()
      let parsed: unknown = text
      try {
        parsed = JSON.parse(text)
      } catch {}
      return { status: res.status, body: parsed as T, headers: res.headers }
    },
    get: (path, headers) => self.call('GET', path, undefined, headers),
    post: (path, body, headers) => self.call('POST', path, body ?? {}, headers),
    patch: (path, body) => self.call('PATCH', path, body),
    delete: (path) => self.call('DELETE', path),
  }
  return self
}

const recipient = (mail: ParsedMail) =>
  (Array.isArray(mail.to) ? mail.to[0] : mail.to)?.value[0]?.address

/** The newest mail to this address whose text matches, once it arrived. */
export async function mailTo(
  smtp: SmtpTestServer,
  email: string,
  match: RegExp,
): Promise<ParsedMail> {
  return smtp.waitFor((m) => recipient(m) === email && match.test(m.text ?? ''))
}

/** The one-time token of a link in a mail (`#verify=…`, `#reset=…`). */
export function linkToken(mail: ParsedMail, kind: 'verify' | 'reset'): string {
  const found = new RegExp(`#${kind}=([\\w-]+)`).exec(mail.text ?? '')
  if (!found?.[1]) throw new Error(`no ${kind} link in the mail: ${mail.text}`)
  return found[1]
}

/** Signed up, verified by the mail's link, signed in: its client (token and cookie kept). */
export async function signedInAdvertiser(
  server: TestServer,
  smtp: SmtpTestServer,
  options: { email?: string; locale?: 'en' | 'fr' | 'de'; company?: string } = {},
): Promise<{ api: AdvertiserClient; email: string; session: AdvertiserSession }> {
  const email = options.email ?? newEmail()
  const api = advertiserClient(server)
  const signUp = await api.post('/advertisers/accounts', {
    email,
    password: STRONG_PASSWORD,
    name: 'Ana Martin',
    company: options.company ?? 'Brand & Co',
    locale: options.locale ?? 'en',
  })
  answerOf(advertisers.signUp, signUp)
  const token = linkToken(await mailTo(smtp, email, /#verify=/), 'verify')
  answerOf(advertisers.verify, await api.post('/advertisers/accounts/verify', { token }))
  const session = answerOf(
    advertisers.signIn,
    await api.post('/advertisers/session', { email, password: STRONG_PASSWORD }),
  )
  api.token = session.accessToken
  return { api, email, session }
}

const HOUR = 3_600_000

/** A draft on two Paris billboards (EUR), starting at least a day from now, a week long. */
export function draftOf(nowMs: number, more: Partial<CampaignDraft> = {}): CampaignDraft {
  const start = Math.ceil((nowMs + 24 * HOUR) / HOUR) * HOUR
  return {
    name: 'Spring sale',
    budgetCents: 50_000,
    currency: 'EUR',
    startEpochMs: start,
    endEpochMs: start + 7 * 24 * HOUR,
    deviceIds: ['paris-opera-1', 'paris-republique'],
    dayparts: ['Morning', 'Evening'],
    ...more,
  }
}

/** A PNG of this size, as an upload's bytes. */
export async function pngOf(width: number, height: number): Promise<Buffer> {
  const { default: sharp } = await import('sharp')
  return sharp({
    create: { width, height, channels: 3, background: { r: 30, g: 120, b: 200 } },
  })
    .png()
    .toBuffer()
}

/** Uploads an ad (multipart, field `file`) for the campaign. */
export async function uploadAd(
  api: AdvertiserClient,
  campaignId: string,
  file: { bytes: Buffer; name: string; type: string },
): Promise<Reply> {
  const form = new FormData()
  form.append('file', new Blob([new Uint8Array(file.bytes)], { type: file.type }), file.name)
  const res = await fetch(`${api.baseUrl}/api/v1/advertisers/campaigns/${campaignId}/content`, {
    method: 'POST',
    headers: {
      origin: api.origin,
      ...(api.token ? { authorization: `Bearer ${api.token}` } : {}),
    },
    body: form,
  })
  return replyOf(res)
}

/** A campaign with its ad uploaded (a photo), ready for a proposal. */
export async function campaignWithAd(
  api: AdvertiserClient,
  nowMs: number,
  more: Partial<CampaignDraft> = {},
): Promise<Campaign> {
  const made = answerOf(
    advertisers.createCampaign,
    await api.post('/advertisers/campaigns', draftOf(nowMs, more)),
  )
  const ad = await uploadAd(api, made.campaignId, {
    bytes: await pngOf(1400, 400),
    name: 'ad.png',
    type: 'image/png',
  })
  answerOf(advertisers.uploadContent, ad)
  return made
}

/** An ad of a billboard's schedule, with the billboard that plays it. */
export type ScheduledAd = ScheduleItem & { deviceId: string }

/**
 * A campaign's ads on the schedules of the billboards given (each with its player's token) over its
 * flight, in the order they play.
 */
export async function scheduledAdsOf(
  shop: Client,
  tokens: ReadonlyMap<string, string>,
  campaignId: string,
  flight: { fromEpochMs: number; toEpochMs: number },
): Promise<ScheduledAd[]> {
  const ads: ScheduledAd[] = []
  for (const [deviceId, token] of tokens) {
    const res = answerOf(
      player.schedule,
      await shop.get(
        `/player/${deviceId}/schedule?fromEpochMs=${flight.fromEpochMs}&toEpochMs=${flight.toEpochMs}`,
        { authorization: `Bearer ${token}` },
      ),
    )
    for (const item of res.items) {
      if (item.campaignId === campaignId) ads.push({ ...item, deviceId })
    }
  }
  return ads.sort((a, b) => a.startEpochMs - b.startEpochMs)
}

/** The billboard's proof of one ad played in full (its player's token); how many plays it accepted. */
export async function proveAdPlay(shop: Client, ad: ScheduledAd, token: string): Promise<number> {
  const play: Play = {
    playId: randomUUID(),
    campaignId: ad.campaignId as string,
    playIndex: ad.playIndex,
    startedAtEpochMs: ad.startEpochMs + 20,
    endedAtEpochMs: ad.endEpochMs,
  }
  const res = answerOf(
    player.plays,
    await shop.post(
      `/player/${ad.deviceId}/plays`,
      { plays: [play] },
      { authorization: `Bearer ${token}` },
    ),
  )
  return res.accepted
}
