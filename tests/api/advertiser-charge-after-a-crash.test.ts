import { randomUUID } from 'node:crypto'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { advertisers } from '../../src/contract/advertisers.ts'
import { order } from '../../src/contract/order.ts'
import { type Play, player } from '../../src/contract/player.ts'
import { chargesOf } from '../../src/server/advertisers/billing/repo.ts'
import { sql } from '../../src/server/platform/db/sql.ts'
import { advertiserEnv, campaignWithAd, SHOP, signedInAdvertiser } from './advertiser-helpers.ts'
import { answerOf, BACKENDS, client, startTestServer, type TestServer } from './helpers.ts'
import { signedInOperator } from './ops-helpers.ts'
import { type SmtpTestServer, startSmtpTestServer } from './smtp-test-server.ts'
import { type StripeStandIn, startStripeStandIn } from './stripe-stand-in.ts'

// A day's charge of proven plays repeated after a crash is made once: the settlement sends the
// pending charge to Stripe under one idempotency key per campaign and day, so a run after the process
// died between Stripe's charge and the charge's row being settled gets Stripe's first answer back.
// The real Stripe SDK against the stand-in, which keeps every PaymentIntent it made.

const DEVICE = 'paris-opera-1'
const DAY = 86_400_000

describe.each(BACKENDS)('a campaign’s daily charge after a crash on %s', (backend) => {
  let smtp: SmtpTestServer
  let stripe: StripeStandIn
  let server: TestServer
  let offsetMs = 0

  beforeAll(async () => {
    smtp = await startSmtpTestServer()
    stripe = await startStripeStandIn('sk_test_shouts_stand_in')
    server = await startTestServer(backend, {
      env: { ...advertiserEnv(smtp), ...stripe.env },
      now: () => Date.now() + offsetMs,
    })
  })
  afterAll(async () => {
    await server?.stop()
    await stripe?.close()
    await smtp?.close()
  })

  it('charges the card once when the settlement runs again after dying mid-charge', async () => {
    // a campaign booked with a card saved through Stripe, approved, one play proven
    const { api } = await signedInAdvertiser(server, smtp)
    const draft = await campaignWithAd(api, Date.now(), { deviceIds: [DEVICE] })
    const proposal = answerOf(
      advertisers.propose,
      await api.post(`/advertisers/campaigns/${draft.campaignId}/proposal`, {}),
    )
    const setup = answerOf(
      order.setupIntent,
      await client(server.url).post('/order/payment/setup-intent'),
    )
    stripe.confirmSetup(setup.clientSecret, 'pm_card_visa')
    answerOf(
      advertisers.accept,
      await api.post(`/advertisers/proposals/${proposal.proposalGuid}/accept`, {
        customerId: setup.customerId,
        checkoutSecretKey: setup.checkoutSecretKey,
      }),
    )
    const reviewer = await signedInOperator(server, 'reviewer', undefined, SHOP)
    await reviewer.api.post(`/ops/campaigns/${draft.campaignId}/approve`, {})
    const linked = await server.deps.player.link(DEVICE)
    if (!linked.ok) throw new Error('link failed')
    const auth = { authorization: `Bearer ${linked.value.token}` }
    const schedule = answerOf(
      player.schedule,
      await client(server.url).get(
        `/player/${DEVICE}/schedule?fromEpochMs=${draft.startEpochMs}&toEpochMs=${draft.startEpochMs + DAY}`,
        auth,
      ),
    )
    const ad = schedule.items.find((i) => i.campaignId === draft.campaignId)
    if (!ad) throw new Error('no ad on the schedule')
    offsetMs = ad.endEpochMs + 60_000 - Date.now()
    const play: Play = {
      playId: randomUUID(),
      campaignId: draft.campaignId,
      playIndex: ad.playIndex,
      startedAtEpochMs: ad.startEpochMs,
      endedAtEpochMs: ad.endEpochMs,
    }
    await client(server.url).post(`/player/${DEVICE}/plays`, { plays: [play] }, auth)

    // the day is over: the settlement charges it at Stripe
    offsetMs = ad.endEpochMs + 2 * DAY - Date.now()
    const before = stripe.paymentIntents.length
    await server.deps.jobs.runNow('ad-settlement')
    const [charged] = await chargesOf(server.deps.database, draft.campaignId)
    expect(charged).toMatchObject({ status: 'charged', plays: 1 })
    expect(stripe.paymentIntents.length).toBe(before + 1)
    const [first] = await paymentOf(draft.campaignId)

    // what a crash after Stripe's charge, before the charge's row was settled, leaves behind:
    // the row still pending, the campaign's spent money not grown
    await server.deps.database.query(sql`
      update ad_charges set status = 'pending', payment_id = null, settled_at = null
      where campaign_id = ${draft.campaignId}`)
    await server.deps.database.query(sql`
      update campaigns set spent_cents = 0 where campaign_id = ${draft.campaignId}`)

    await server.deps.jobs.runNow('ad-settlement')
    await server.deps.jobs.runNow('ad-settlement')
    // Stripe answered the repeated key with its first PaymentIntent: one charge in all
    expect(stripe.paymentIntents.length).toBe(before + 1)
    const keys = stripe.calls
      .filter((c) => c.method === 'POST' && c.path === '/v1/payment_intents')
      .map((c) => c.idempotencyKey)
      .slice(-2)
    expect(keys[0]).toBe(keys[1])
    expect(await paymentOf(draft.campaignId)).toEqual([first])
    expect(await chargesOf(server.deps.database, draft.campaignId)).toMatchObject([
      { status: 'charged', amountCents: charged?.amountCents },
    ])
    const [campaign] = await server.deps.database.query(sql<{ spentCents: number }>`
      select spent_cents::float8 as "spentCents" from campaigns
      where campaign_id = ${draft.campaignId}`)
    expect(campaign?.spentCents).toBe(charged?.amountCents)
    offsetMs = 0
  })

  const paymentOf = async (campaignId: string) =>
    (
      await server.deps.database.query(sql<{ paymentId: string }>`
        select payment_id as "paymentId" from ad_charges where campaign_id = ${campaignId}`)
    ).map((r) => r.paymentId)
})
