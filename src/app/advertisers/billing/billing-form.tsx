import { Trans, useLingui } from '@lingui/react/macro'
import { type FormEvent, useEffect, useId, useMemo, useState } from 'react'
import { advertiserBilling, type BillingDetails } from '../../../contract/advertisers-billing'
import { EU_VAT_PREFIXES, isEuCountry, vatNumberFits } from '../../../domain/invoice'
import type { ProblemData } from '../../../domain/problems'
import { problemsOfError } from '../../features/advertisers/problems'
import { callAsAdvertiser } from '../../features/advertisers/session'
import { problemText } from '../../lib/problem-text'
import { Button } from '../../ui/button'
import { Notice } from '../../ui/notice'
import { ProblemList } from '../../ui/problem-list'
import { TextArea } from '../../ui/text-area'
import { TextField } from '../../ui/text-field'

// The countries offered: the EU's member states (their VAT numbers are checked) and the others
// advertisers come from most; any other code can still be sent through the API.
const COUNTRIES = [
  ...Object.keys(EU_VAT_PREFIXES),
  ...['GB', 'CH', 'NO', 'IS', 'LI', 'MC', 'US', 'CA', 'AU', 'JP'],
]

const EMPTY: BillingDetails = { legalName: '', address: '', country: '', vatNumber: null }

/**
 * The account's billing details, as its invoices name the buyer: legal name, address, country, and a
 * VAT number (its format checked for an EU country, as the server checks it; optional elsewhere).
 */
export function BillingForm() {
  const { t, i18n } = useLingui()
  const countryId = useId()
  const [form, setForm] = useState<BillingDetails>(EMPTY)
  const [loaded, setLoaded] = useState(false)
  const [problems, setProblems] = useState<ProblemData[]>([])
  const [vatProblem, setVatProblem] = useState<ProblemData | null>(null)
  const [busy, setBusy] = useState(false)
  const [saved, setSaved] = useState(false)

  useEffect(() => {
    const abort = new AbortController()
    callAsAdvertiser(advertiserBilling.billing, { signal: abort.signal })
      .then((found) => {
        if (found.billing) setForm(found.billing)
        setLoaded(true)
      })
      .catch((error: unknown) => {
        if (!abort.signal.aborted) setProblems(problemsOfError(error))
      })
    return () => abort.abort()
  }, [])

  const names = useMemo(() => {
    const display = new Intl.DisplayNames([i18n.locale], { type: 'region' })
    return COUNTRIES.map((code) => ({ code, name: display.of(code) ?? code })).sort((a, b) =>
      a.name.localeCompare(b.name, i18n.locale),
    )
  }, [i18n.locale])

  const set = <K extends keyof BillingDetails>(key: K, value: BillingDetails[K]) => {
    setForm((f) => ({ ...f, [key]: value }))
    setSaved(false)
    if (key === 'vatNumber' || key === 'country') setVatProblem(null)
  }

  const submit = async (e: FormEvent) => {
    e.preventDefault()
    const vatNumber = form.vatNumber?.trim() ? form.vatNumber.trim() : null
    if (vatNumber && isEuCountry(form.country) && !vatNumberFits(form.country, vatNumber)) {
      setVatProblem({ code: 'vat_number_invalid', params: { country: form.country } })
      return
    }
    setBusy(true)
    setProblems([])
    try {
      const answer = await callAsAdvertiser(advertiserBilling.setBilling, {
        body: { ...form, vatNumber },
      })
      if (answer.billing) setForm(answer.billing)
      setSaved(true)
    } catch (error) {
      const found = problemsOfError(error)
      const vat = found.find((p) => p.code === 'vat_number_invalid')
      if (vat) setVatProblem(vat)
      setProblems(found.filter((p) => p !== vat))
    } finally {
      setBusy(false)
    }
  }

  const prefix = EU_VAT_PREFIXES[form.country]
  return (
    <section className="card" aria-labelledby="adv-billing">
      <h2 className="section-title" id="adv-billing">
        <Trans>Billing details</Trans>
      </h2>
      <p className="field__hint">
        <Trans>
          Your invoices name your business as you write it here. Invoices already issued stay as
          they are.
        </Trans>
      </p>
      {!loaded && problems.length === 0 ? (
        <div className="skeleton" style={{ height: 120 }} aria-busy="true" />
      ) : (
        <form onSubmit={(e) => void submit(e)} noValidate>
          <TextField
            label={t`Legal name`}
            autoComplete="organization"
            required
            value={form.legalName}
            onChange={(e) => set('legalName', e.target.value)}
          />
          <TextArea
            label={t`Address`}
            autoComplete="street-address"
            required
            rows={3}
            value={form.address}
            onChange={(e) => set('address', e.target.value)}
          />
          <div className="field">
            <label className="field__label" htmlFor={countryId}>
              <Trans>Country</Trans>
            </label>
            <select
              id={countryId}
              className="field__input"
              required
              value={form.country}
              onChange={(e) => set('country', e.target.value)}
            >
              <option value="" disabled>
                {t`Choose a country`}
              </option>
              {names.map((c) => (
                <option key={c.code} value={c.code}>
                  {c.name}
                </option>
              ))}
            </select>
          </div>
          <TextField
            label={t`VAT number`}
            hint={
              prefix
                ? t`It starts with ${prefix}. A business in another EU country than ours with a VAT number pays no VAT: the invoice says so (reverse charge).`
                : t`Optional.`
            }
            error={vatProblem ? problemText(i18n, vatProblem) : null}
            value={form.vatNumber ?? ''}
            onChange={(e) => set('vatNumber', e.target.value)}
          />
          {problems.length > 0 ? <ProblemList problems={problems} /> : null}
          {saved ? (
            <Notice>
              <Trans>Saved: your next invoices name these details.</Trans>
            </Notice>
          ) : null}
          <div className="adv__actions">
            <Button kind={busy ? 'loading' : 'black'} size="field" htmlType="submit">
              <Trans>Save the billing details</Trans>
            </Button>
          </div>
        </form>
      )}
    </section>
  )
}
