// The benchmarks' advertiser: signed up, verified through the link of its stored mail, signed in.
// The account and its mail are made after the sign-up's answer, by the advertiser-requests job
// (docs/security.md): it is run here, not waited for.
import type { RunningServer } from '../../src/server/main.ts'
import { sql } from '../../src/server/platform/db/sql.ts'
import {
  type AdvertiserClient,
  advertiserClient,
  STRONG_PASSWORD,
} from '../../tests/api/advertiser-helpers.ts'

export async function benchAdvertiser(
  server: RunningServer,
): Promise<{ api: AdvertiserClient; email: string }> {
  const email = `bench-${process.pid}@brand.example`
  const api = advertiserClient({ url: server.url } as never, server.url)
  await api.post('/advertisers/accounts', {
    email,
    password: STRONG_PASSWORD,
    name: 'Bench',
    company: 'Bench & Co',
    locale: 'en',
  })
  await server.deps.jobs.runNow('advertiser-requests')
  const [mail] = await server.deps.database.query(sql<{ text: string }>`
    select body_text as text from mail_outbox where kind = 'account_verify' and to_address = ${email}`)
  const token = /#verify=([\w-]+)/.exec(mail?.text ?? '')?.[1]
  if (!token) throw new Error('the bench advertiser got no verification mail')
  await api.post('/advertisers/accounts/verify', { token })
  api.token = (
    await api.post<{ accessToken: string }>('/advertisers/session', {
      email,
      password: STRONG_PASSWORD,
    })
  ).body.accessToken
  return { api, email }
}
