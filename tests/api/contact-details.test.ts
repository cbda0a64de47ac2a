import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { englishOf } from '../../src/contract/problems.ts'
import { sql } from '../../src/server/platform/db/sql.ts'
import {
  BACKENDS,
  type Client,
  client,
  daySlots,
  generateContent,
  LIVE,
  LIVE_UK,
  LIVE_US,
  orderBody,
  placeOrder,
  savedCard,
  startTestServer,
  type TestServer,
} from './helpers.ts'

// A shopper's phone number on the order, read in the billboard's country (spec §5): its national
// forms and any international number are taken and kept in E.164; another is refused with the
// country's example (the spec's XXX-XXX-XXXX sentence for US billboards), and nothing is sold.
describe.each(BACKENDS)('contact details on %s', (backend) => {
  let server: TestServer
  let api: Client
  let group = 0
  const slots = () => daySlots(3 + (group % 8), 8 + 2 * Math.floor(group++ / 8), 1)

  beforeAll(async () => {
    server = await startTestServer(backend)
    api = client(server.url)
  })
  afterAll(async () => {
    await server?.stop()
  })

  // the demo's billboards at London's Piccadilly and Times Square are wide screens
  const templateOf = (deviceId: string) =>
    ['london-piccadilly-1', 'nyc-times-square-1'].includes(deviceId) ? 'hearts-wide' : 'hearts'
  // the live event of the billboard's city: the euro one, or its London or New York run
  const eventOf = (deviceId: string) =>
    deviceId.startsWith('london-') ? LIVE_UK : deviceId.startsWith('nyc-') ? LIVE_US : LIVE
  const order = async (deviceId: string, phoneNumber: string) => {
    const content = await generateContent(api, deviceId, eventOf(deviceId), templateOf(deviceId))
    const body = orderBody({ slots: slots(), content, checkout: await savedCard(api) })
    return placeOrder(api, { ...body, customer: { ...body.customer, phoneNumber } })
  }
  const storedPhone = async (guid: string) => {
    const rows = await server.deps.database.query(
      sql<{ phone: string }>`select phone_number as phone from orders where guid = ${guid}`,
    )
    return rows[0]?.phone
  }

  it.each([
    ['paris-opera-1', '06 12 34 56 78', '+33612345678'],
    ['berlin-alexanderplatz', '0151 23456789', '+4915123456789'],
    ['london-piccadilly-1', '07700 900123', '+447700900123'],
    ['nyc-times-square-1', '555-123-4567', '+15551234567'],
    ['paris-opera-1', '+49 151 23456789', '+4915123456789'],
  ])('a %s order takes %j and keeps %s', async (deviceId, typed, e164) => {
    const placed = await order(deviceId, typed)
    expect(placed.status).toBe(201)
    expect(await storedPhone(placed.body.guid)).toBe(e164)
  })

  it("refuses a number that is none of a French billboard's with France's example", async () => {
    const refused = await order('paris-opera-1', '555-123-4567')
    expect(refused.status).toBe(400)
    expect(refused.body).toMatchObject({
      codes: ['phone_invalid_for_country'],
      params: [{ example: '06 12 34 56 78' }],
      errors: [
        englishOf({ code: 'phone_invalid_for_country', params: { example: '06 12 34 56 78' } }),
      ],
    })
    expect(refused.body.errors?.[0]).toBe(
      'Phone number format invalid, try: 06 12 34 56 78, or an international number starting with +',
    )
  })

  it("keeps the spec's sentence for a US billboard, and sells nothing", async () => {
    const content = await generateContent(api, 'nyc-times-square-1', LIVE_US, 'hearts-wide')
    const mine = slots()
    const body = orderBody({ slots: mine, content, checkout: await savedCard(api) })
    const refused = await placeOrder(api, {
      ...body,
      customer: { ...body.customer, phoneNumber: '555-1234' },
    })
    expect(refused.status).toBe(400)
    expect(refused.body.errors).toEqual(['Phone number format invalid, try: XXX-XXX-XXXX'])
    const placed = await placeOrder(api, body)
    expect(placed.status).toBe(201)
  })

  it('refuses a text that is no phone number before anything else is read', async () => {
    const refused = await order('paris-opera-1', 'call me')
    expect(refused).toMatchObject({ status: 400, body: { codes: ['phone_invalid'] } })
  })
})
