import { Trans, useLingui } from '@lingui/react/macro'
import { type FormEvent, type ReactNode, useState } from 'react'
import { CANCEL_REASON_MAX_LENGTH } from '../../contract/ops/orders'
import { TextArea } from '../ui/text-area'
import { Notice } from './ops-frame'

/**
 * The reason an operator gives to cancel or refuse an order (required, the shopper
 * receives it; at most what the API's CancelRequestSchema takes). `onReason` gets it trimmed, and
 * only when there is one. What differs between a refusal and a cancel comes in: the field's label,
 * the button's text, and a confirm step shown instead of the buttons (`confirm`).
 */
export function ReasonForm({
  label,
  submitLabel,
  reason,
  onReasonChange,
  busy,
  error,
  confirm,
  onReason,
  missing,
  onKeep,
}: {
  label: string
  submitLabel: ReactNode
  /** what is typed, kept by the page: closing the form with "Keep it" loses none of it */
  reason: string
  onReasonChange: (reason: string) => void
  busy: boolean
  /** why the last call failed, under the field */
  error?: string | null
  /** shown instead of the buttons while the reason waits to be confirmed */
  confirm?: ReactNode
  onReason: (reason: string) => void
  /** what the field says when left empty (who receives the reason) */
  missing?: string
  /** "Keep it": the order stays as it is */
  onKeep: () => void
}) {
  const { t } = useLingui()
  const [reasonError, setReasonError] = useState<string | null>(null)

  const submit = (event: FormEvent) => {
    event.preventDefault()
    const said = reason.trim()
    if (!said) {
      setReasonError(missing ?? t`Say why: the shopper receives this reason.`)
      return
    }
    setReasonError(null)
    onReason(said)
  }

  return (
    <form className="ops-refuse" onSubmit={submit} noValidate>
      <TextArea
        label={label}
        value={reason}
        onChange={(e) => onReasonChange(e.target.value)}
        error={reasonError}
        maxLength={CANCEL_REASON_MAX_LENGTH}
        rows={3}
        required
        disabled={busy}
      />
      {error ? <Notice tone="error">{error}</Notice> : null}
      {confirm ?? (
        <div className="ops-card__actions">
          <button type="submit" className="ops-button ops-button--danger" disabled={busy}>
            {submitLabel}
          </button>
          <button
            type="button"
            className="ops-button ops-button--quiet"
            onClick={onKeep}
            disabled={busy}
          >
            <Trans>Keep it</Trans>
          </button>
        </div>
      )}
    </form>
  )
}
