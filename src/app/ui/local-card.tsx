import { Trans, useLingui } from '@lingui/react/macro'
import type { LocalConfirmRequest } from '../../contract/order'
import { TextField } from './text-field'

// The local payment provider's test-card fields (no Stripe key: development, tests, a demo), for the
// shopper's checkout and the advertiser's saved card alike. What the provider says of the card is shown
// by the page that asked, beside the form.

export type LocalCard = { number: string; expiry: string; cvc: string }

export const NO_CARD: LocalCard = { number: '', expiry: '', cvc: '' }

/** The local provider's confirmation of a SetupIntent with the card as typed (MM/YY or MM/YYYY). */
export function localConfirmation(clientSecret: string, card: LocalCard): LocalConfirmRequest {
  const [month = '', year = ''] = card.expiry.split('/').map((part) => part.trim())
  return {
    clientSecret,
    cardNumber: card.number,
    expMonth: Number(month),
    expYear: year.length === 2 ? 2000 + Number(year) : Number(year),
    cvc: card.cvc.trim(),
  }
}

export function LocalCardFields({
  card,
  onChange,
}: {
  card: LocalCard
  onChange: (card: LocalCard) => void
}) {
  const { t } = useLingui()
  return (
    <div className="card-form">
      <p className="field__hint">
        <Trans>Test mode: use the card 4242 4242 4242 4242, any future date and any CVC.</Trans>
      </p>
      <TextField
        label={t`Card number`}
        inputMode="numeric"
        autoComplete="cc-number"
        value={card.number}
        onChange={(e) => onChange({ ...card, number: e.target.value })}
      />
      <div className="field-pair">
        <TextField
          label={t`Expiry (MM/YY)`}
          inputMode="numeric"
          autoComplete="cc-exp"
          placeholder={t`MM/YY`}
          value={card.expiry}
          onChange={(e) => onChange({ ...card, expiry: e.target.value })}
        />
        <TextField
          label={t`CVC`}
          inputMode="numeric"
          autoComplete="cc-csc"
          value={card.cvc}
          onChange={(e) => onChange({ ...card, cvc: e.target.value })}
        />
      </div>
    </div>
  )
}
