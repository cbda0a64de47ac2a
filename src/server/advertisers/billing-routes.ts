import { advertiserBilling as api } from '../../contract/advertisers-billing.ts'
import { opsInvoices } from '../../contract/ops/invoices.ts'
import type { OpsGuard } from '../auth/guard.ts'
import type { ApiRouter } from '../platform/http/router.ts'
import { mapOk, ok } from '../platform/result.ts'
import type { AdvertiserGuard } from './guard.ts'
import type { AdvertisersService } from './service.ts'

// api-v1 "Advertisers", billing (the account's billing details, its invoices and their PDFs), and
// the console's invoices (admins): an account's, a PDF, a charged day's refund with its credit note.

const pdfHeaders = (label: string) => ({
  'Content-Type': 'application/pdf',
  'Content-Disposition': `attachment; filename="${label.replace(/[^A-Za-z0-9\-_/]/g, '')}.pdf"`,
  'Cache-Control': 'private, no-store',
})

export function billingRoutes(
  router: ApiRouter,
  service: AdvertisersService,
  guard: AdvertiserGuard,
  opsGuard: OpsGuard,
) {
  const { invoices, campaigns } = service

  guard.handle(router, api.billing, async ({ account }) =>
    ok({
      billing: await invoices.billing(account.accountId),
    }),
  )

  guard.handle(router, api.setBilling, async ({ account, body }) => {
    const set = await invoices.setBilling(account.accountId, body)
    return mapOk(set, (value) => ({ billing: value }))
  })

  guard.handle(router, api.invoices, async ({ account }) =>
    ok({
      invoices: await invoices.ofAccount(account.accountId),
    }),
  )

  guard.handle(router, api.campaignInvoices, async ({ account, params }) => {
    const found = await campaigns.get(account.accountId, params.campaignId)
    if (!found.ok) return found
    return ok({ invoices: await invoices.ofCampaign(params.campaignId) })
  })

  guard.handle(router, api.invoicePdf, async ({ c, account, params }) => {
    const found = await invoices.pdf(params.invoiceId, account.accountId)
    if (!found.ok) return found
    return ok(c.body(new Uint8Array(found.value.bytes), 200, pdfHeaders(found.value.label)))
  })

  guard.handle(router, api.replaceCard, async ({ account, params, body }) => {
    const replaced = await service.replaceCard(account.accountId, params.campaignId, body)
    return replaced
  })

  opsGuard.handle(router, opsInvoices.accountInvoices, async ({ params }) =>
    ok({
      invoices: await invoices.ofAccount(params.accountId),
    }),
  )

  opsGuard.handle(router, opsInvoices.invoicePdf, async ({ c, params }) => {
    const found = await invoices.pdf(params.invoiceId, null)
    if (!found.ok) return found
    return ok(c.body(new Uint8Array(found.value.bytes), 200, pdfHeaders(found.value.label)))
  })

  opsGuard.handle(router, opsInvoices.refundCharge, async ({ params, body, operator }) => {
    const done = await invoices.refund(params.campaignId, params.day, body, operator)
    return done
  })
}
