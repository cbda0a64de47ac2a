import type { MessageDescriptor } from '@lingui/core'
import { msg } from '@lingui/core/macro'
import { Trans, useLingui } from '@lingui/react/macro'
import type { OpsCampaign } from '../../contract/ops/campaigns'
import { formatMoney } from '../../domain/money'
import { dayIn } from './format'

// A campaign's daily charges in the console's Campaigns page: each billboard-local day of proven
// plays, what it came to, and whether the card paid it (a failed one paused the campaign).

const CHARGE_STATES: Record<OpsCampaign['charges'][number]['status'], MessageDescriptor> = {
  pending: msg`pending`,
  charged: msg`charged`,
  failed: msg`declined`,
}

export function CampaignCharges({ campaign: c }: { campaign: OpsCampaign }) {
  const { t, i18n } = useLingui()
  if (c.charges.length === 0) return null
  return (
    <table className="ops-table ops-table--inner">
      <caption>{t`Charges of ${c.name}`}</caption>
      <thead>
        <tr>
          <th scope="col">
            <Trans>Day</Trans>
          </th>
          <th scope="col">
            <Trans>Plays</Trans>
          </th>
          <th scope="col">
            <Trans>Amount</Trans>
          </th>
          <th scope="col">
            <Trans>Charge</Trans>
          </th>
        </tr>
      </thead>
      <tbody>
        {c.charges.map((charge) => (
          <tr key={charge.day}>
            <td>{dayIn(charge.day, i18n.locale)}</td>
            <td>{charge.plays}</td>
            <td>
              {formatMoney(charge.amountCents, { currency: charge.currency, locale: i18n.locale })}
            </td>
            <td>{i18n._(CHARGE_STATES[charge.status])}</td>
          </tr>
        ))}
      </tbody>
    </table>
  )
}
