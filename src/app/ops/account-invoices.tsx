import { Trans, useLingui } from '@lingui/react/macro'
import { type FormEvent, useState } from 'react'
import type { InvoiceSummary } from '../../contract/advertisers-billing'
import { pathOf } from '../../contract/endpoint'
import { opsInvoices } from '../../contract/ops/invoices'
import { formatMoney, parseAmount } from '../../domain/money'
import { callApi } from '../lib/api'
import { TextField } from '../ui/text-field'
import { useOpsFailure } from './errors'

// An advertiser's invoices and credit notes in the console's Campaigns page (admins): each with its
// PDF, and a refund of an invoiced day, which gives the money back to the card and issues a credit
// note in the same series.

export function AccountInvoices({ accountId, company }: { accountId: string; company: string }) {
  const { t, i18n } = useLingui()
  const failure = useOpsFailure()
  const [invoices, setInvoices] = useState<InvoiceSummary[] | null>(null)
  const [error, setError] = useState<string | null>(null)
  const [refunding, setRefunding] = useState<InvoiceSummary | null>(null)
  const [amount, setAmount] = useState('')
  const [reason, setReason] = useState('')
  const [busy, setBusy] = useState(false)

  const load = async () => {
    setError(null)
    try {
      setInvoices((await callApi(opsInvoices.accountInvoices, { params: { accountId } })).invoices)
    } catch (e) {
      setError(failure(e))
    }
  }

  const refund = async (e: FormEvent) => {
    e.preventDefault()
    if (!refunding) return
    const cents = parseAmount(amount, refunding.currency)
    if (cents === null || cents < 1 || !reason.trim()) {
      setError(t`Give an amount, such as 12.50, and why.`)
      return
    }
    setBusy(true)
    setError(null)
    try {
      await callApi(opsInvoices.refundCharge, {
        params: { campaignId: refunding.campaignId, day: refunding.day },
        body: { amountCents: cents, reason: reason.trim() },
      })
      setRefunding(null)
      setAmount('')
      setReason('')
      await load()
    } catch (e) {
      setError(failure(e))
    } finally {
      setBusy(false)
    }
  }

  const money = (i: InvoiceSummary) =>
    formatMoney(i.grossCents, { currency: i.currency, locale: i18n.locale })
  if (invoices === null) {
    return (
      <>
        <button type="button" className="ops-button ops-button--quiet" onClick={() => void load()}>
          {t`Invoices of ${company}`}
        </button>
        {error ? <p role="alert">{error}</p> : null}
      </>
    )
  }
  return (
    <table className="ops-table ops-table--inner">
      <caption>{t`Invoices of ${company}`}</caption>
      <thead>
        <tr>
          <th scope="col">
            <Trans>Number</Trans>
          </th>
          <th scope="col">
            <Trans>Day</Trans>
          </th>
          <th scope="col">
            <Trans>Total</Trans>
          </th>
          <th scope="col">
            <span className="visually-hidden">
              <Trans>Actions</Trans>
            </span>
          </th>
        </tr>
      </thead>
      <tbody>
        {invoices.length === 0 ? (
          <tr>
            <td colSpan={4}>
              <Trans>No invoice yet.</Trans>
            </td>
          </tr>
        ) : null}
        {invoices.map((i) => (
          <tr key={i.invoiceId}>
            <td>
              {i.kind === 'credit_note' ? (
                <Trans>
                  Credit note {i.label} (for {i.refersTo})
                </Trans>
              ) : (
                i.label
              )}
            </td>
            <td>{i.day}</td>
            <td>{money(i)}</td>
            <td>
              <a
                className="ops-button ops-button--quiet"
                href={pathOf(opsInvoices.invoicePdf, { invoiceId: i.invoiceId })}
                download={`${i.label}.pdf`}
              >
                <Trans>PDF</Trans>
              </a>{' '}
              {i.kind === 'invoice' ? (
                <button
                  type="button"
                  className="ops-button ops-button--quiet"
                  onClick={() => setRefunding(i)}
                >
                  {t`Refund…`}
                </button>
              ) : null}
            </td>
          </tr>
        ))}
        {refunding ? (
          <tr>
            <td colSpan={4}>
              <form className="ops-refuse" onSubmit={(e) => void refund(e)} noValidate>
                <TextField
                  label={t`Amount to give back of ${refunding.label} (${refunding.currency})`}
                  inputMode="decimal"
                  value={amount}
                  onChange={(e) => setAmount(e.target.value)}
                />
                <TextField
                  label={t`Why (printed on the credit note)`}
                  value={reason}
                  onChange={(e) => setReason(e.target.value)}
                />
                <button type="submit" className="ops-button" disabled={busy}>
                  <Trans>Refund and issue the credit note</Trans>
                </button>{' '}
                <button
                  type="button"
                  className="ops-button ops-button--quiet"
                  onClick={() => setRefunding(null)}
                >
                  <Trans>Keep it</Trans>
                </button>
              </form>
            </td>
          </tr>
        ) : null}
      </tbody>
      {error ? (
        <caption style={{ captionSide: 'bottom' }} role="alert">
          {error}
        </caption>
      ) : null}
    </table>
  )
}
