import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { advertisers } from '../../src/contract/advertisers.ts'
import { advertiserBilling } from '../../src/contract/advertisers-billing.ts'
import { order } from '../../src/contract/order.ts'
import { dailyChargeKey } from '../../src/domain/ad-settlement.ts'
import { chargesOf } from '../../src/server/advertisers/billing/repo.ts'
import { sql } from '../../src/server/platform/db/sql.ts'
import {
  type AdvertiserClient,
  advertiserEnv,
  campaignWithAd,
  SHOP,
  signedInAdvertiser,
} from './advertiser-helpers.ts'
import { answerOf, BACKENDS, client, startTestServer, type TestServer } from './helpers.ts'
import { signedInOperator } from './ops-helpers.ts'
import { type SmtpTestServer, startSmtpTestServer } from './smtp-test-server.ts'
import { type StripeStandIn, startStripeStandIn } from './stripe-stand-in.ts'

// The card of a booked campaign, replaced: a new SetupIntent saved through the shop's payment flow
// (Stripe's, through the stand-in), each day declined earlier charged once on it (one PaymentIntent
// whatever the runs and the replacements repeated), and the campaign paused for the decline resumed.

const DEVICE = 'paris-opera-1'

describe.each(BACKENDS)('a campaign’s card replaced on %s', (backend) => {
  let smtp: SmtpTestServer
  let stripe: StripeStandIn
  let server: TestServer

  beforeAll(async () => {
    smtp = await startSmtpTestServer()
    stripe = await startStripeStandIn('sk_test_shouts_stand_in')
    server = await startTestServer(backend, { env: { ...advertiserEnv(smtp), ...stripe.env } })
  })
  afterAll(async () => {
    await server?.stop()
    await stripe?.close()
    await smtp?.close()
  })

  /** A card saved through Stripe's flow with this test payment method. */
  async function card(paymentMethod: string) {
    const setup = answerOf(
      order.setupIntent,
      await client(server.url).post('/order/payment/setup-intent'),
    )
    stripe.confirmSetup(setup.clientSecret, paymentMethod)
    return { customerId: setup.customerId, checkoutSecretKey: setup.checkoutSecretKey }
  }

  async function approved(api: AdvertiserClient, paymentMethod: string): Promise<string> {
    const draft = await campaignWithAd(api, Date.now(), { deviceIds: [DEVICE] })
    const proposal = answerOf(
      advertisers.propose,
      await api.post(`/advertisers/campaigns/${draft.campaignId}/proposal`, {}),
    )
    answerOf(
      advertisers.accept,
      await api.post(
        `/advertisers/proposals/${proposal.proposalGuid}/accept`,
        await card(paymentMethod),
      ),
    )
    const reviewer = await signedInOperator(server, 'reviewer', undefined, SHOP)
    await reviewer.api.post(`/ops/campaigns/${draft.campaignId}/approve`, {})
    return draft.campaignId
  }

  /** A day of two proven plays, due: its pending charge, as the settlement's first step leaves it. */
  async function dueDay(campaignId: string, day: string) {
    const db = server.deps.database
    const [row] = await db.query(sql<{ cents: number }>`
      with picked as (
        select device_id, start_epoch_ms from ad_plays where campaign_id = ${campaignId}
          and charge_day is null order by start_epoch_ms limit 2
      ), proven as (
        update ad_plays p set proven_at_epoch_ms = p.start_epoch_ms, charge_day = ${day}
        from picked where p.device_id = picked.device_id
          and p.start_epoch_ms = picked.start_epoch_ms
        returning p.cost_cents
      )
      select coalesce(sum(cost_cents), 0)::float8 as cents from proven`)
    await db.query(sql`
      insert into ad_charges (campaign_id, day, idempotency_key, plays, amount_cents, currency,
        status, created_at)
      values (${campaignId}, ${day}, ${dailyChargeKey(campaignId, day)}, 2, ${Number(row?.cents)},
        'EUR', 'pending', now())`)
  }

  const succeeded = () =>
    stripe.paymentIntents.filter((id) => stripe.paymentIntent(id)?.status === 'succeeded')

  it('charges a declined day once on the new card, and lets the paused campaign resume', async () => {
    const { api } = await signedInAdvertiser(server, smtp)
    const campaignId = await approved(api, 'pm_card_chargeDeclined')
    await dueDay(campaignId, '2030-06-01')
    await server.deps.advertisers.settlement.settle()
    expect(await chargesOf(server.deps.database, campaignId)).toMatchObject([
      { day: '2030-06-01', status: 'failed' },
    ])
    const paused = answerOf(
      advertisers.campaign,
      await api.get(`/advertisers/campaigns/${campaignId}`),
    )
    expect(paused).toMatchObject({ state: 'Paused', pausedReason: 'charge_failed' })

    const before = succeeded().length
    const replacement = await card('pm_card_visa')
    answerOf(
      advertiserBilling.replaceCard,
      await api.post(`/advertisers/campaigns/${campaignId}/card`, replacement),
    )
    // the replacement sent twice (a double click, a retry) and the settlement run three times
    expect((await api.post(`/advertisers/campaigns/${campaignId}/card`, replacement)).status).toBe(
      200,
    )
    await server.deps.advertisers.settlement.settle()
    await server.deps.advertisers.settlement.settle()
    await server.deps.advertisers.settlement.settle()
    const [charge] = await chargesOf(server.deps.database, campaignId)
    expect(charge).toMatchObject({ day: '2030-06-01', status: 'charged' })
    expect(succeeded().length).toBe(before + 1)
    const invoices = answerOf(
      advertiserBilling.campaignInvoices,
      await api.get(`/advertisers/campaigns/${campaignId}/invoices`),
    )
    expect(invoices.invoices.map((i) => i.day)).toEqual(['2030-06-01'])

    // replaced once more: the day is charged already, nothing is charged again
    await api.post(`/advertisers/campaigns/${campaignId}/card`, await card('pm_card_mastercard'))
    await server.deps.advertisers.settlement.settle()
    expect(succeeded().length).toBe(before + 1)

    const resumed = answerOf(
      advertisers.resume,
      await api.post(`/advertisers/campaigns/${campaignId}/resume`, {}),
    )
    expect(resumed.state).toBe('Approved')
  })

  it('refuses a card that was not saved, and a campaign that is over', async () => {
    const { api } = await signedInAdvertiser(server, smtp)
    const campaignId = await approved(api, 'pm_card_visa')
    const setup = answerOf(
      order.setupIntent,
      await client(server.url).post('/order/payment/setup-intent'),
    )
    const unconfirmed = await api.post<{ codes: string[] }>(
      `/advertisers/campaigns/${campaignId}/card`,
      { customerId: setup.customerId, checkoutSecretKey: setup.checkoutSecretKey },
    )
    expect(unconfirmed.status).toBe(400)
    expect(unconfirmed.body.codes).toEqual(['setup_not_confirmed'])
    await api.post(`/advertisers/campaigns/${campaignId}/cancel`, {})
    const over = await api.post<{ codes: string[] }>(
      `/advertisers/campaigns/${campaignId}/card`,
      await card('pm_card_visa'),
    )
    expect(over.status).toBe(409)
    expect(over.body.codes).toEqual(['campaign_state_conflict'])
  })
})
