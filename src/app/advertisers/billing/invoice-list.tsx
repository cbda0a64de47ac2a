import { Trans, useLingui } from '@lingui/react/macro'
import { useEffect, useState } from 'react'
import { advertiserBilling, type InvoiceSummary } from '../../../contract/advertisers-billing'
import { pathOf } from '../../../contract/endpoint'
import type { ProblemData } from '../../../domain/problems'
import { money } from '../../features/advertisers/format'
import { problemsOfError } from '../../features/advertisers/problems'
import { callAsAdvertiser, fileAsAdvertiser } from '../../features/advertisers/session'
import { Button } from '../../ui/button'
import { ProblemList } from '../../ui/problem-list'

/** Saves a file fetched with the access token (a plain link would carry none). */
export async function saveFile(path: string, filename: string): Promise<void> {
  const blob = await fileAsAdvertiser(path)
  const url = URL.createObjectURL(blob)
  const link = document.createElement('a')
  link.href = url
  link.download = filename
  document.body.append(link)
  link.click()
  link.remove()
  // the browser has taken the file once the click's task is over
  setTimeout(() => URL.revokeObjectURL(url), 0)
}

/**
 * The invoices and credit notes of the account, or of one campaign: number, day, amounts, and each
 * as a PDF in the account's language.
 */
export function InvoiceList({ campaignId }: { campaignId?: string }) {
  const { t, i18n } = useLingui()
  const [invoices, setInvoices] = useState<InvoiceSummary[] | null>(null)
  const [problems, setProblems] = useState<ProblemData[]>([])
  const [saving, setSaving] = useState<string | null>(null)

  useEffect(() => {
    const abort = new AbortController()
    const asked = campaignId
      ? callAsAdvertiser(advertiserBilling.campaignInvoices, {
          params: { campaignId },
          signal: abort.signal,
        })
      : callAsAdvertiser(advertiserBilling.invoices, { signal: abort.signal })
    asked
      .then((found) => setInvoices(found.invoices))
      .catch((error: unknown) => {
        if (!abort.signal.aborted) setProblems(problemsOfError(error))
      })
    return () => abort.abort()
  }, [campaignId])

  const download = async (invoice: InvoiceSummary) => {
    setSaving(invoice.invoiceId)
    setProblems([])
    try {
      await saveFile(
        pathOf(advertiserBilling.invoicePdf, { invoiceId: invoice.invoiceId }),
        `${invoice.label}.pdf`,
      )
    } catch (error) {
      setProblems(problemsOfError(error))
    } finally {
      setSaving(null)
    }
  }

  const day = (d: string) =>
    new Intl.DateTimeFormat(i18n.locale, { dateStyle: 'medium', timeZone: 'UTC' }).format(
      Date.parse(`${d}T12:00:00Z`),
    )
  return (
    <section className="card" aria-labelledby="adv-invoices">
      <h2 className="section-title" id="adv-invoices">
        <Trans>Invoices</Trans>
      </h2>
      {invoices === null && problems.length === 0 ? (
        <div className="skeleton" style={{ height: 60 }} aria-busy="true" />
      ) : null}
      {invoices?.length === 0 ? (
        <p className="field__hint">
          <Trans>No invoice yet: each day of proven plays is invoiced once it is charged.</Trans>
        </p>
      ) : null}
      {invoices && invoices.length > 0 ? (
        <table className="adv__table">
          <thead>
            <tr>
              <th>
                <Trans>Number</Trans>
              </th>
              <th>
                <Trans>Day of the plays</Trans>
              </th>
              <th className="adv__num">
                <Trans>Total</Trans>
              </th>
              <th>
                <span className="visually-hidden">
                  <Trans>PDF</Trans>
                </span>
              </th>
            </tr>
          </thead>
          <tbody>
            {invoices.map((invoice) => (
              <tr key={invoice.invoiceId}>
                <td>
                  {invoice.kind === 'credit_note' ? (
                    <Trans>
                      Credit note {invoice.label} (for {invoice.refersTo})
                    </Trans>
                  ) : (
                    <Trans>Invoice {invoice.label}</Trans>
                  )}
                </td>
                <td>{day(invoice.day)}</td>
                <td className="adv__num">
                  {money(invoice.grossCents, invoice.currency, i18n.locale)}
                </td>
                <td>
                  <Button
                    kind={saving === invoice.invoiceId ? 'loading' : 'white'}
                    onClick={() => void download(invoice)}
                    aria-label={t`Download ${invoice.label} (PDF)`}
                  >
                    <Trans>PDF</Trans>
                  </Button>
                </td>
              </tr>
            ))}
          </tbody>
        </table>
      ) : null}
      {problems.length > 0 ? <ProblemList problems={problems} /> : null}
    </section>
  )
}
