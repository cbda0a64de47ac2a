import { Trans, useLingui } from '@lingui/react/macro'
import type { InventoryLine } from '../../../contract/advertisers'
import { count, money } from './format'

type Props = {
  lines: readonly InventoryLine[] | null
  chosen: readonly string[]
  onToggle: (deviceId: string, on: boolean) => void
  error: string | null
}

/** The billboards sold to advertisers, with what a play reaches and costs, and what is still free. */
export function BillboardPicker({ lines, chosen, onToggle, error }: Props) {
  const { t, i18n } = useLingui()
  return (
    <fieldset
      className={`field ${error ? 'field--error' : ''}`}
      aria-describedby={error ? 'billboards-error' : undefined}
    >
      <legend className="field__label">
        <Trans>Billboards</Trans>
      </legend>
      {lines === null ? <div className="skeleton" style={{ height: 120 }} /> : null}
      {lines?.length === 0 ? (
        <p className="field__hint">
          <Trans>No billboard is sold to advertisers at these dates.</Trans>
        </p>
      ) : null}
      <ul className="adv__billboards">
        {lines?.map((line) => {
          const id = `billboard-${line.deviceId}`
          return (
            <li key={line.deviceId} className="adv__billboard">
              <input
                id={id}
                type="checkbox"
                checked={chosen.includes(line.deviceId)}
                onChange={(e) => onToggle(line.deviceId, e.target.checked)}
              />
              <label htmlFor={id}>
                <strong>{line.location}</strong>, {line.city}
                <small>
                  {t`${count(line.impressionsPerPlay, i18n.locale)} impressions per play`} ·{' '}
                  {t`${money(line.costCentsPerPlay, line.currency, i18n.locale)} per play`} ·{' '}
                  {t`${count(line.freePlays, i18n.locale)} ad plays free at these dates`}
                </small>
              </label>
            </li>
          )
        })}
      </ul>
      {error ? (
        <p id="billboards-error" className="field__error" role="alert">
          {error}
        </p>
      ) : null}
    </fieldset>
  )
}
