// GET /api/v1/metrics in Prometheus's format, behind METRICS_TOKEN: requests and latency by
// the endpoint's path template (never the raw path), orders by state, content jobs and payment errors;
// no SSE-clients gauge, since there is no SSE endpoint to count.
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import {
  client,
  daySlots,
  generateContent,
  LIVE,
  orderBody,
  placeOrder,
  savedCard,
  settledStatus,
  startTestServer,
  type TestServer,
} from './helpers.ts'

const TOKEN = 'metrics-token-for-the-tests-0123'

describe('metrics', () => {
  let server: TestServer
  let off: TestServer
  beforeAll(async () => {
    ;[server, off] = await Promise.all([
      startTestServer('pglite', { env: { METRICS_TOKEN: TOKEN } }),
      startTestServer('pglite'),
    ])
  })
  afterAll(async () => {
    await server?.stop()
    await off?.stop()
  })

  const scrape = async (url: string, authorization?: string) => {
    const res = await fetch(`${url}/api/v1/metrics`, {
      headers: authorization ? { authorization } : {},
    })
    return { status: res.status, type: res.headers.get('content-type'), text: await res.text() }
  }

  it('are off without METRICS_TOKEN, and need the token when on', async () => {
    expect((await scrape(off.url, `Bearer ${TOKEN}`)).status).toBe(404)
    expect((await scrape(server.url)).status).toBe(401)
    expect((await scrape(server.url, `Bearer ${TOKEN}x`)).status).toBe(401)
    expect((await scrape(server.url, TOKEN)).status).toBe(401)
    const ok = await scrape(server.url, `Bearer ${TOKEN}`)
    expect(ok.status).toBe(200)
    expect(ok.type).toMatch(/^text\/plain; version=0\.0\.4/)
  })

  it('count requests and latency by route template, orders by state, jobs and payment errors', async () => {
    const api = client(server.url)
    for (let i = 0; i < 3; i++)
      expect((await api.get(`/spotlight/events/${LIVE}`)).status).toBe(200)
    expect((await api.get('/spotlight/events/no-such-event')).status).toBe(404)
    const content = await generateContent(api)
    const good = await placeOrder(
      api,
      orderBody({ slots: daySlots(5, 10, 1), content, checkout: await savedCard(api) }),
    )
    const declined = await placeOrder(
      api,
      orderBody({
        slots: daySlots(5, 20, 1),
        content,
        checkout: await savedCard(api, '4000000000000341'),
      }),
    )
    const job = await api.post('/content/generate', {
      contentGenerationRequest: content.source,
      async: true,
    })
    expect(job.status).toBe(200)
    expect((await settledStatus(api, LIVE, good.body.guid)).orderState).toBe('Confirmed')
    expect((await settledStatus(api, LIVE, declined.body.guid)).orderState).toBe('Failed')

    const { text } = await scrape(server.url, `Bearer ${TOKEN}`)
    const value = (line: string) => {
      const found = text.split('\n').find((l) => l.startsWith(`${line} `))
      return found === undefined ? undefined : Number(found.slice(line.length + 1))
    }
    const route = 'method="GET",route="/spotlight/events/{slug}"'
    expect(value(`shouts_http_requests_total{${route},status="2xx"}`)).toBe(3)
    expect(value(`shouts_http_requests_total{${route},status="4xx"}`)).toBe(1)
    expect(value(`shouts_http_request_duration_seconds_count{${route}}`)).toBe(4)
    expect(value(`shouts_http_request_duration_seconds_bucket{${route},le="+Inf"}`)).toBe(4)
    // Never the raw path: no event slug in any label.
    expect(text).not.toContain(LIVE)
    expect(text).not.toContain('no-such-event')
    expect(value('shouts_orders{state="Confirmed"}')).toBe(1)
    expect(value('shouts_orders{state="Failed"}')).toBe(1)
    expect(value('shouts_payment_errors{kind="declined"}')).toBe(1)
    expect(value('shouts_payment_errors{kind="provider"}')).toBe(0)
    expect(text).not.toContain('shouts_sse_clients')
    const jobs = [...text.matchAll(/^shouts_content_jobs\{status="\w+"\} (\d+)$/gm)]
    expect(jobs.reduce((sum, [, n]) => sum + Number(n), 0)).toBe(1)
    expect(text).toContain('shouts_process_resident_memory_bytes')
  })
})
