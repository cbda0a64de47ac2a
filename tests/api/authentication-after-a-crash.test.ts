// A charge the bank asks the shopper to confirm (3-D Secure), across a server killed with SIGKILL: once
// mid-charge (Stripe made the PaymentIntent, the server never heard back) and once while the order
// waits for the cardholder. The server started again finds both orders, the shopper completes the
// bank's check, and each order is confirmed, its card charged once and its slots sold once. Through the
// real Stripe SDK against the stand-in, and through the local provider's 3-D Secure test card.
import { mkdtemp, rm } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import path from 'node:path'
import { afterEach, describe, expect, it } from 'vitest'
import { order } from '../../src/contract/order.ts'
import { type RunningServer, startServer } from '../../src/server/main.ts'
import { sql } from '../../src/server/platform/db/sql.ts'
import { createLogger } from '../../src/server/platform/log.ts'
import {
  answerOf,
  BACKENDS,
  type Checkout,
  type Client,
  client,
  daySlots,
  freshPostgres,
  generateContent,
  LIVE,
  orderBody,
  placeOrder,
  savedCard,
} from './helpers.ts'
import { type Instance, spawnInstance, until } from './instances.ts'
import { type StripeStandIn, startStripeStandIn } from './stripe-stand-in.ts'

const SECRET = 'sk_test_shouts_authentication_crash'
// three server starts, one a process of its own (tsx, and PGlite opening its files twice): minutes
// under a loaded machine's test runs
const SLOW_STARTS = { timeout: 240_000 }

describe.each(BACKENDS)(
  'a charge waiting for the cardholder, across a kill -9 (%s)',
  SLOW_STARTS,
  (backend) => {
    let database: Awaited<ReturnType<typeof freshPostgres>> | null = null
    let dataDir = ''
    let stripe: StripeStandIn | null = null
    let a: Instance | null = null
    let b: RunningServer | null = null

    afterEach(async () => {
      stripe?.holdCharges(false)
      await a?.kill()
      await b?.close()
      await stripe?.close()
      await database?.drop()
      if (dataDir) await rm(dataDir, { recursive: true, force: true })
      a = b = stripe = database = null
    })

    /** The settings of every instance on the one database, the demo catalogue in it. */
    const shopData = async (more: Record<string, string>) => {
      database = backend === 'postgres' ? await freshPostgres() : null
      dataDir = await mkdtemp(path.join(tmpdir(), 'shouts-authentication-crash-'))
      const env: Record<string, string> = {
        DATA_DIR: dataDir,
        LEASE_SECONDS: '1',
        ...(database ? { DATABASE_URL: database.url } : {}),
        ...more,
      }
      const first = await startServer({
        port: 0,
        serveApp: false,
        log: createLogger('silent'),
        env,
      })
      await first.close()
      return env
    }

    const restart = async (env: Record<string, string>) => {
      b = await startServer({ port: 0, serveApp: false, log: createLogger('silent'), env })
      return client(b.url)
    }

    const status = async (api: Client, guid: string) =>
      answerOf(order.status, await api.get(`/order/events/${LIVE}/orders/${guid}/status`))

    const place = async (api: Client, checkout: Checkout, slots: number[], content: never) => {
      const placed = await placeOrder(api, orderBody({ slots, content, checkout }))
      expect(placed.status).toBe(201)
      return placed.body.guid as string
    }

    /** Polls the order's status until it waits for the cardholder (recovery may take a lease's length). */
    const waiting = (api: Client, guid: string) =>
      until(
        async () => {
          const s = await status(api, guid)
          return s.orderState === 'AwaitingAuthentication' && s.paymentAction ? s : null
        },
        30_000,
        `order ${guid} to wait for the cardholder`,
      )

    const settle = async (api: Client, guid: string) => {
      const res = answerOf(
        order.authenticated,
        await api.post(`/order/events/${LIVE}/orders/${guid}/authentication`),
      )
      return res
    }

    /** Each order: confirmed with the one charge `paymentId`, its slots held by it alone. */
    const soldOnce = async (orders: { guid: string; slots: number[]; paymentId: string }[]) => {
      const db = (b as RunningServer).deps.database
      for (const { guid, slots, paymentId } of orders) {
        const [order] = await db.query(sql<{ state: string; payment_id: string }>`
        select state, payment_id from orders where guid = ${guid}`)
        expect(order).toEqual({ state: 'Confirmed', payment_id: paymentId })
        const held = await db.query(sql<{ order_guid: string }>`
        select order_guid from slot_reservations
        where event_slug = ${LIVE} and device_id = 'paris-opera-1' and slot_number = any(${slots})`)
        expect(held.map((r) => r.order_guid)).toEqual(slots.map(() => guid))
      }
    }

    it('through Stripe: confirms both orders after the bank check, each charged once', async () => {
      stripe = await startStripeStandIn(SECRET)
      const env = await shopData(stripe.env)
      a = await spawnInstance('tests/api/fixtures/probe-instance.ts', env)
      let api = client(a.url)
      const content = (await generateContent(api)) as never
      const card = async () => {
        const setup = answerOf(order.setupIntent, await api.post('/order/payment/setup-intent'))
        stripe?.confirmSetup(setup.clientSecret, 'pm_card_authenticationRequired')
        return setup
      }
      const charges = () =>
        (stripe as StripeStandIn).calls.filter((c) => c.path === '/v1/payment_intents')

      // W waits for the cardholder when the server dies.
      const w = { guid: '', slots: daySlots(5, 40, 2) }
      w.guid = await place(api, await card(), w.slots, content)
      await waiting(api, w.guid)
      // M: Stripe makes its PaymentIntent (it asks for the cardholder), the server never hears back.
      const m = { guid: '', slots: daySlots(6, 40, 2) }
      const mCard = await card()
      stripe.holdCharges(true)
      m.guid = await place(api, mCard, m.slots, content)
      await until(
        async () => (charges().some((c) => c.idempotencyKey === `order-${m.guid}`) ? true : null),
        20_000,
        "M's charge",
      )
      expect(stripe.paymentIntents).toHaveLength(2)

      await a.kill()
      stripe.holdCharges(false)
      api = await restart(env)

      // M's charge is made again under its key: Stripe's first answer back, the same PaymentIntent.
      const mWaiting = await waiting(api, m.guid)
      const wWaiting = await status(api, w.guid)
      expect(wWaiting.orderState).toBe('AwaitingAuthentication')
      for (const s of [mWaiting, wWaiting]) {
        stripe.authenticate(s.paymentAction?.clientSecret as string, 'complete')
      }
      expect((await settle(api, m.guid)).orderState).toBe('Confirmed')
      expect((await settle(api, w.guid)).orderState).toBe('Confirmed')
      // asking again charges nothing more
      expect((await settle(api, w.guid)).orderState).toBe('Confirmed')

      // one PaymentIntent per order, each charged
      expect(stripe.paymentIntents).toHaveLength(2)
      const intentOf = (guid: string) => {
        const ids = (stripe as StripeStandIn).paymentIntents.filter(
          (id) => stripe?.paymentIntent(id)?.metadata.orderGuid === guid,
        )
        expect(ids).toHaveLength(1)
        expect(stripe?.paymentIntent(ids[0] as string)?.status).toBe('succeeded')
        return ids[0] as string
      }
      await soldOnce([
        { ...w, paymentId: intentOf(w.guid) },
        { ...m, paymentId: intentOf(m.guid) },
      ])
    })

    it('through the local provider (4000 0027 6000 3184): confirmed after the check, charged once', async () => {
      const env = await shopData({})
      a = await spawnInstance('tests/api/fixtures/probe-instance.ts', env)
      let api = client(a.url)
      const content = (await generateContent(api)) as never
      const w = { guid: '', slots: daySlots(7, 40, 2) }
      w.guid = await place(api, await savedCard(api, '4000002760003184'), w.slots, content)
      const before = await waiting(api, w.guid)
      expect(before.paymentAction?.provider).toBe('local')

      await a.kill()
      api = await restart(env)

      const after = await waiting(api, w.guid)
      expect(after.paymentAction?.clientSecret).toBe(before.paymentAction?.clientSecret)
      const answer = answerOf(
        order.localAuthenticate,
        await api.post('/order/payment/local/authentication', {
          clientSecret: after.paymentAction?.clientSecret,
          outcome: 'complete',
        }),
      )
      expect(answer).toEqual({ status: 'succeeded' })
      expect((await settle(api, w.guid)).orderState).toBe('Confirmed')
      expect((await settle(api, w.guid)).orderState).toBe('Confirmed')
      // the local provider keeps its charges in the payments table: one, succeeded
      const payments = await (b as RunningServer).deps.database.query(
        sql<{
          id: string
          status: string
        }>`select id, status from payments where order_guid = ${w.guid}`,
      )
      expect(payments).toEqual([{ id: expect.any(String), status: 'succeeded' }])
      await soldOnce([{ ...w, paymentId: (payments[0] as { id: string }).id }])
    })
  },
)
