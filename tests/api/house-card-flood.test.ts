import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { BACKENDS, startTestServer, type TestServer } from './helpers.ts'

// The house card is public (SMIL players fetch it without credentials): a stranger flooding it with
// every variant of its address gets one drawing per billboard and event, and 429 past the per-address
// limit, counted in the database so it holds across instances.

const DEVICE = 'paris-opera-1'
const TOKEN = 'metrics-token-for-the-house-card-flood'

describe.each(BACKENDS)('the house card under a flood (%s)', (backend) => {
  let server: TestServer
  beforeAll(async () => {
    server = await startTestServer(backend, { env: { METRICS_TOKEN: TOKEN } })
  })
  afterAll(async () => {
    await server?.stop()
  })

  const renders = async () => {
    const res = await fetch(`${server.url}/api/v1/metrics`, {
      headers: { authorization: `Bearer ${TOKEN}` },
    })
    const text = await res.text()
    const count = (outcome: string) =>
      Number(
        text.match(
          new RegExp(`^shouts_house_card_renders_total\\{outcome="${outcome}"\\} (\\d+)`, 'm'),
        )?.[1],
      )
    return { run: count('run'), refused: count('refused') }
  }

  it('draws each card once whatever the query, and answers 429 past 60 a minute from one address', async () => {
    const card = (query: string) =>
      fetch(`${server.url}/api/v1/player/${DEVICE}/house-card.png${query}`)
    // 60 distinct variants of the address, ten at a time
    const statuses: number[] = []
    for (let batch = 0; batch < 6; batch++) {
      const answers = await Promise.all(
        Array.from({ length: 10 }, (_, i) => card(`?v=${batch * 10 + i}&w=${i}`)),
      )
      for (const answer of answers) {
        statuses.push(answer.status)
        await answer.arrayBuffer()
      }
    }
    expect(statuses.every((status) => status === 200)).toBe(true)
    expect(await renders()).toEqual({ run: 1, refused: 0 })

    const over = await card('?v=over')
    expect(over.status).toBe(429)
    expect(Number(over.headers.get('retry-after'))).toBeGreaterThan(0)
    expect(await over.json()).toMatchObject({ codes: ['too_many_requests'] })
    expect((await renders()).run).toBe(1)
  })
})
