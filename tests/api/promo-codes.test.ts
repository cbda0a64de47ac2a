import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { englishOf } from '../../src/contract/problems.ts'
import {
  BACKENDS,
  type Client,
  client,
  daySlots,
  generateContent,
  orderBody,
  placeOrder,
  savedCard,
  startTestServer,
  type TestServer,
} from './helpers.ts'

// spec §5 promo codes, as a shopper meets them across the lookup and the order.
describe.each(BACKENDS)('promo codes (%s)', (backend) => {
  let server: TestServer
  let api: Client

  beforeAll(async () => {
    server = await startTestServer(backend)
    api = client(server.url)
  })
  afterAll(async () => {
    await server?.stop()
  })

  it('a once-per-customer code is once per mailbox: once+1@gmail.com and o.nce@ do not pass', async () => {
    const event = 'share-your-dragon-france'
    const content = await generateContent(api, 'paris-opera-1', event)
    const placed = await placeOrder(
      api,
      orderBody({
        slots: daySlots(3, 60, 1),
        content,
        checkout: await savedCard(api),
        promoCode: 'DRAGONFR',
        email: 'once@gmail.com',
      }),
    )
    expect(placed.status).toBe(201)
    const lookup = (email: string) =>
      api.get(
        `/spotlight/promos/code/DRAGONFR?eventSlug=${event}&email=${encodeURIComponent(email)}`,
      )
    for (const email of ['once+1@gmail.com', 'o.nce@googlemail.com', 'ONCE+promo@gmail.com']) {
      expect((await lookup(email)).body, email).toEqual({
        errors: [englishOf({ code: 'promo_once_per_customer' })],
        codes: ['promo_once_per_customer'],
      })
    }
    const again = await placeOrder(
      api,
      orderBody({
        slots: daySlots(3, 61, 1),
        content,
        checkout: await savedCard(api),
        promoCode: 'DRAGONFR',
        email: 'once+2@gmail.com',
      }),
    )
    expect(again.status).toBe(422)
    expect(again.body.errors).toEqual([englishOf({ code: 'promo_once_per_customer' })])
    // another mailbox is another customer
    expect((await lookup('twice@gmail.com')).status).toBe(200)
  })
})
