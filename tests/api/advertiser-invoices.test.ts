import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { advertisers } from '../../src/contract/advertisers.ts'
import { advertiserBilling } from '../../src/contract/advertisers-billing.ts'
import { opsInvoices } from '../../src/contract/ops/invoices.ts'
import { dailyChargeKey } from '../../src/domain/ad-settlement.ts'
import { chargesOf } from '../../src/server/advertisers/billing/repo.ts'
import { type RunningServer, startServer } from '../../src/server/main.ts'
import { sql } from '../../src/server/platform/db/sql.ts'
import {
  type AdvertiserClient,
  advertiserEnv,
  campaignWithAd,
  mailTo,
  SHOP,
  signedInAdvertiser,
} from './advertiser-helpers.ts'
import {
  answerOf,
  BACKENDS,
  client,
  savedCard,
  startTestServer,
  type TestServer,
} from './helpers.ts'
import { signedInOperator } from './ops-helpers.ts'
import { pdfOf, pdfText } from './pdf-text.ts'
import { type SmtpTestServer, startSmtpTestServer } from './smtp-test-server.ts'

// Invoices a business can book: each charge of a campaign gets one invoice, numbered in one
// gap-free series of the seller's, with the VAT of the buyer's country (reverse charge for an EU
// business of another member state); a refund gets a credit note in the same series. Numbers hold
// under concurrent charges on two instances and across a crash. The PDF is read back as text.

const SELLER_ENV = {
  SELLER_LEGAL_NAME: 'Shouts Affichage SAS',
  SELLER_ADDRESS: '12 rue de Rivoli|75004 Paris',
  SELLER_COUNTRY: 'FR',
  SELLER_VAT_NUMBER: 'FR40303265045',
  SELLER_VAT_RATE: '20',
  INVOICE_PREFIX: 'SH-T-',
}
const DEVICE = 'paris-opera-1'
// 40 settlements at once, each receipt with its PDF: minutes on a loaded machine, not the default minute
const RACE_TIMEOUT_MS = 240_000

describe.each(BACKENDS)('invoices of campaigns’ charges on %s', (backend) => {
  let smtp: SmtpTestServer
  let server: TestServer
  let second: RunningServer | null = null
  const env = () => ({ ...advertiserEnv(smtp), ...SELLER_ENV })

  beforeAll(async () => {
    smtp = await startSmtpTestServer()
    server = await startTestServer(backend, { env: env() })
  })
  afterAll(async () => {
    await second?.close()
    await server?.stop()
    await smtp?.close()
  })

  /** A campaign on one billboard, booked with a saved card (its plays reserved). */
  async function booked(api: AdvertiserClient): Promise<string> {
    const draft = await campaignWithAd(api, Date.now(), { deviceIds: [DEVICE] })
    const proposal = answerOf(
      advertisers.propose,
      await api.post(`/advertisers/campaigns/${draft.campaignId}/proposal`, {}),
    )
    const saved = await savedCard(client(server.url))
    answerOf(
      advertisers.accept,
      await api.post(`/advertisers/proposals/${proposal.proposalGuid}/accept`, {
        customerId: saved.customerId,
        checkoutSecretKey: saved.checkoutSecretKey,
      }),
    )
    return draft.campaignId
  }

  /**
   * A day whose plays were proven and are due: `plays` of the campaign's plays proven and named by
   * the day, and its pending charge, as the settlement's first step leaves them.
   */
  async function dueDay(campaignId: string, day: string, plays = 2): Promise<number> {
    const db = server.deps.database
    const [row] = await db.query(sql<{ cents: number }>`
      with picked as (
        select device_id, start_epoch_ms from ad_plays
        where campaign_id = ${campaignId} and charge_day is null
        order by start_epoch_ms limit ${plays}
      ), proven as (
        update ad_plays p set proven_at_epoch_ms = p.start_epoch_ms, charge_day = ${day}
        from picked where p.device_id = picked.device_id
          and p.start_epoch_ms = picked.start_epoch_ms
        returning p.cost_cents
      )
      select coalesce(sum(cost_cents), 0)::float8 as cents from proven`)
    const cents = Number(row?.cents ?? 0)
    await db.query(sql`
      insert into ad_charges (campaign_id, day, idempotency_key, plays, amount_cents, currency,
        status, created_at)
      values (${campaignId}, ${day}, ${dailyChargeKey(campaignId, day)}, ${plays}, ${cents}, 'EUR',
        'pending', now())`)
    return cents
  }

  const invoicesOf = async (api: AdvertiserClient) =>
    answerOf(advertiserBilling.invoices, await api.get('/advertisers/invoices')).invoices

  const numbers = async () =>
    (
      await server.deps.database.query(sql<{ number: number }>`
        select number::int as number from invoices where prefix = 'SH-T-' order by number`)
    ).map((r) => r.number)

  it('invoices a day’s charge with the VAT of the seller’s country, its PDF naming both parties, the lines and the totals, attached to the receipt', async () => {
    const { api, email } = await signedInAdvertiser(server, smtp)
    const set = await api.call('PUT', '/advertisers/account/billing', {
      legalName: 'Boulangerie Martin SARL',
      address: '3 place du Marché\n69002 Lyon',
      country: 'FR',
      vatNumber: 'FR 83 404 833 048',
    })
    expect(set.status).toBe(200)
    const campaignId = await booked(api)
    const cents = await dueDay(campaignId, '2030-03-04', 3)
    await server.deps.advertisers.settlement.settle()

    const [invoice] = await invoicesOf(api)
    expect(invoice).toMatchObject({
      kind: 'invoice',
      campaignId,
      day: '2030-03-04',
      grossCents: cents,
      vatRateBasisPoints: 2000,
      vatExemption: null,
    })
    if (!invoice) throw new Error('no invoice')
    expect(invoice.label).toMatch(/^SH-T-\d{6}$/)
    expect(invoice.netCents + invoice.vatCents).toBe(cents)
    expect(invoice.netCents).toBe(Math.round((cents * 100) / 120))
    const forCampaign = answerOf(
      advertiserBilling.campaignInvoices,
      await api.get(`/advertisers/campaigns/${campaignId}/invoices`),
    )
    expect(forCampaign.invoices.map((i) => i.label)).toEqual([invoice.label])

    const pdf = await pdfOf(server.url, `/advertisers/invoices/${invoice.invoiceId}/pdf`, {
      authorization: `Bearer ${api.token}`,
      origin: SHOP,
    })
    expect(pdf.type).toBe('application/pdf')
    const text = await pdfText(pdf.bytes)
    expect(text).toContain('Invoice')
    expect(text).toContain(invoice.label)
    expect(text).toContain('Shouts Affichage SAS')
    expect(text).toContain('FR40303265045')
    expect(text).toContain('Boulangerie Martin SARL')
    expect(text).toContain('FR83404833048')
    expect(text).toContain('Opéra')
    const euros = (c: number) => `€ ${(c / 100).toFixed(2)}`
    expect(text).toContain(euros(invoice.netCents))
    expect(text).toContain(euros(invoice.vatCents))
    expect(text).toContain(euros(cents))

    const receipt = await mailTo(smtp, email, /We charged your card/)
    const attached = receipt.attachments.find((a) => a.contentType === 'application/pdf')
    expect(attached?.filename).toBe(`${invoice.label}.pdf`)
    expect(await pdfText(new Uint8Array(attached?.content ?? []))).toContain(invoice.label)

    // another account cannot read it
    const other = await signedInAdvertiser(server, smtp)
    const stranger = await other.api.get(`/advertisers/invoices/${invoice.invoiceId}/pdf`)
    expect(stranger.status).toBe(404)
  })

  it('reverse-charges an EU business of another member state and charges no VAT outside the EU, in the account’s language', async () => {
    const german = await signedInAdvertiser(server, smtp, { locale: 'de' })
    await german.api.call('PUT', '/advertisers/account/billing', {
      legalName: 'Bäckerei Müller GmbH',
      address: 'Hauptstraße 5\n10115 Berlin',
      country: 'DE',
      vatNumber: 'DE136695976',
    })
    const american = await signedInAdvertiser(server, smtp)
    await american.api.call('PUT', '/advertisers/account/billing', {
      legalName: 'Acme Corp',
      address: '1 Main St\nSpringfield, IL',
      country: 'US',
      vatNumber: null,
    })
    const germanCampaign = await booked(german.api)
    const cents = await dueDay(germanCampaign, '2030-03-05')
    const americanCampaign = await booked(american.api)
    await dueDay(americanCampaign, '2030-03-05')
    await server.deps.advertisers.settlement.settle()

    const [reverse] = await invoicesOf(german.api)
    expect(reverse).toMatchObject({
      vatExemption: 'reverse_charge',
      vatRateBasisPoints: 0,
      vatCents: 0,
      netCents: cents,
      grossCents: cents,
    })
    const text = await pdfText(
      (
        await pdfOf(server.url, `/advertisers/invoices/${reverse?.invoiceId}/pdf`, {
          authorization: `Bearer ${german.api.token}`,
          origin: SHOP,
        })
      ).bytes,
    )
    expect(text).toContain('Rechnung')
    expect(text).toContain('DE136695976')
    expect(text).toContain('Steuerschuldnerschaft des Leistungsempfängers')
    const [outside] = await invoicesOf(american.api)
    expect(outside).toMatchObject({ vatExemption: 'outside_eu', vatCents: 0 })
  })

  it('refuses a VAT number that is not of the billing country, and a country that is not a code', async () => {
    const { api } = await signedInAdvertiser(server, smtp)
    const wrong = await api.call<{ codes: string[] }>('PUT', '/advertisers/account/billing', {
      legalName: 'Bäckerei Müller GmbH',
      address: 'Hauptstraße 5',
      country: 'DE',
      vatNumber: 'FR40303265045',
    })
    expect(wrong.status).toBe(400)
    expect(wrong.body.codes).toEqual(['vat_number_invalid'])
    const country = await api.call<{ codes: string[] }>('PUT', '/advertisers/account/billing', {
      legalName: 'X',
      address: 'Y',
      country: 'Germany',
      vatNumber: null,
    })
    expect(country.status).toBe(400)
    expect(country.body.codes).toEqual(['country_unknown'])
    expect((await api.get('/advertisers/account/billing')).body).toEqual({ billing: null })
  })

  it('gives a refund of a charged day its credit note in the same series, referring to the invoice, never more than the charge', async () => {
    const { api, session } = await signedInAdvertiser(server, smtp)
    const campaignId = await booked(api)
    const cents = await dueDay(campaignId, '2030-03-06', 3)
    await server.deps.advertisers.settlement.settle()
    const [invoice] = await invoicesOf(api)
    const admin = await signedInOperator(server, 'admin', undefined, SHOP)
    const path = `/ops/campaigns/${campaignId}/charges/2030-03-06/refund`
    const refunded = answerOf(
      opsInvoices.refundCharge,
      await admin.api.post(path, { amountCents: cents, reason: 'The billboard was dark' }),
    )
    expect(refunded.creditNote).toMatchObject({
      kind: 'credit_note',
      refersTo: invoice?.label,
      grossCents: -cents,
      netCents: -(invoice?.netCents ?? 0),
      vatCents: -(invoice?.vatCents ?? 0),
    })
    const all = await numbers()
    expect(all[all.length - 1]).toBe(Number(refunded.creditNote.label.slice(5)))
    const again = await admin.api.post<{ codes: string[] }>(path, { amountCents: 1, reason: 'x' })
    expect(again.status).toBe(409)
    expect(again.body.codes).toEqual(['charge_not_refundable'])
    // the console lists the account's invoice and credit note
    const listed = answerOf(
      opsInvoices.accountInvoices,
      await admin.api.get(`/ops/advertisers/${session.account.accountId}/invoices`),
    )
    expect(listed.invoices.map((i) => i.kind)).toEqual(['credit_note', 'invoice'])
    const reviewer = await signedInOperator(server, 'reviewer', undefined, SHOP)
    expect((await reviewer.api.post(path, { amountCents: 1, reason: 'x' })).status).toBe(403)
    const text = await pdfText(
      (
        await pdfOf(server.url, `/advertisers/invoices/${refunded.creditNote.invoiceId}/pdf`, {
          authorization: `Bearer ${api.token}`,
          origin: SHOP,
        })
      ).bytes,
    )
    expect(text).toContain('Credit note')
    expect(text).toContain(invoice?.label)
  })

  it('keeps every invoice as issued: a change or a deletion is refused by the database', async () => {
    const [any] = await server.deps.database.query(sql<{ invoiceId: string }>`
      select invoice_id as "invoiceId" from invoices limit 1`)
    await expect(
      server.deps.database.query(sql`
        update invoices set gross_cents = 0 where invoice_id = ${any?.invoiceId}`),
    ).rejects.toThrow(/never changed or deleted/)
    await expect(
      server.deps.database.query(sql`delete from invoices where invoice_id = ${any?.invoiceId}`),
    ).rejects.toThrow(/never changed or deleted/)
  })

  it(
    'numbers 20 charges made at once on two instances one after another, without a hole or a repeat, each charge invoiced once',
    async () => {
      if (backend === 'postgres') {
        second = await startServer({
          port: 0,
          serveApp: false,
          dataDir: server.dataDir,
          databaseUrl: server.deps.env.DATABASE_URL as string,
          env: { LOG_LEVEL: 'error', WRITES_PER_MINUTE: '100000', ...env() },
        })
      }
      const instances = [server, second ?? server]
      const { api } = await signedInAdvertiser(server, smtp)
      const campaignId = await booked(api)
      const before = await numbers()
      for (let day = 10; day < 30; day++) await dueDay(campaignId, `2030-04-${day}`, 1)
      const pending = (await chargesOf(server.deps.database, campaignId)).filter(
        (c) => c.status === 'pending',
      )
      expect(pending).toHaveLength(20)
      // each charge collected by both instances at the same moment: 40 attempts at 20 charges
      await Promise.all(
        pending.flatMap((charge) =>
          instances.map((instance) => instance.deps.advertisers.settlement.collect(charge)),
        ),
      )
      const after = await numbers()
      const last = before[before.length - 1] ?? 0
      expect(after.slice(before.length)).toEqual(Array.from({ length: 20 }, (_, i) => last + i + 1))
      const invoices = (await invoicesOf(api)).filter((i) => i.kind === 'invoice')
      expect(invoices).toHaveLength(20)
      expect(new Set(invoices.map((i) => i.day)).size).toBe(20)
    },
    RACE_TIMEOUT_MS,
  )

  it('gives back the number of an invoice whose transaction died, and invoices the charge once after the restart', async () => {
    const { api } = await signedInAdvertiser(server, smtp)
    const campaignId = await booked(api)
    await dueDay(campaignId, '2030-05-01')
    const [charge] = await chargesOf(server.deps.database, campaignId)
    if (!charge) throw new Error('no charge')
    const before = await numbers()
    // the charge went through and its invoice took a number; the process died before the commit
    await expect(
      server.deps.database.transaction(async (tx) => {
        await tx.query(sql`
          update ad_charges set status = 'charged', payment_id = 'pi_gone', settled_at = now()
          where campaign_id = ${campaignId}`)
        await server.deps.advertisers.invoices.issueForCharge(tx, charge)
        throw new Error('the process died')
      }),
    ).rejects.toThrow('the process died')
    expect(await numbers()).toEqual(before)

    await second?.close()
    second = null
    server = await server.restart()
    await server.deps.advertisers.settlement.settle()
    await server.deps.advertisers.settlement.settle()
    const after = await numbers()
    expect(after).toEqual([...before, (before[before.length - 1] ?? 0) + 1])
    const invoiced = await server.deps.database.query(sql<{ day: string }>`
      select charge_day as day from invoices where campaign_id = ${campaignId}`)
    expect(invoiced).toEqual([{ day: '2030-05-01' }])
  })
})
