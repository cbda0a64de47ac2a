import { Trans, useLingui } from '@lingui/react/macro'
import { type FormEvent, useState } from 'react'
import { ops } from '../../contract/ops/orders'
import { callApi } from '../lib/api'
import { TextField } from '../ui/text-field'
import { AUDIT_ACTIONS, AUDIT_DETAIL_KEYS } from './audit-words'
import { Code } from './code'
import { dateTimeIn, NO_PLACE_ZONE } from './format'
import { NotReady, OpsPage, RefreshButton } from './ops-frame'
import { TableBox } from './table-box'
import { useAddressSearch } from './use-address-search'
import { useOpsLoad } from './use-ops-load'
import { ZoneNote } from './zone-note'

const AUDIT_SEARCH_KEYS = ['operator', 'action'] as const

/**
 * The audit log (admins): who did what, when, to which order, in words; newest first, filtered by
 * who (an operator's e-mail) and what (an action), the filter kept in the address.
 */
export function AuditPage() {
  const { t, i18n } = useLingui()
  const [address, go] = useAddressSearch(AUDIT_SEARCH_KEYS)
  const [who, setWho] = useState(address.operator ?? '')
  const [what, setWhat] = useState(address.action ?? '')
  const [log, reload] = useOpsLoad(
    (signal) =>
      callApi(ops.audit, {
        signal,
        query: { operator: address.operator, action: address.action },
      }),
    [address.operator, address.action],
  )
  const submit = (event: FormEvent) => {
    event.preventDefault()
    go({ operator: who.trim() || undefined, action: what || undefined })
  }
  return (
    <OpsPage title={t`Audit log`} actions={<RefreshButton onClick={reload} />}>
      <form className="ops-search" onSubmit={submit} aria-label={t`Filter the audit log`}>
        <TextField
          label={t`Who (an operator's e-mail)`}
          value={who}
          onChange={(e) => setWho(e.target.value)}
          type="email"
          autoComplete="off"
        />
        <label className="ops-select">
          <span>
            <Trans>What</Trans>
          </span>
          <select value={what} onChange={(e) => setWhat(e.target.value)}>
            <option value="">{t`Every action`}</option>
            {Object.entries(AUDIT_ACTIONS).map(([action, words]) => (
              <option key={action} value={action}>
                {i18n._(words)}
              </option>
            ))}
          </select>
        </label>
        <button type="submit" className="ops-button">
          <Trans>Filter</Trans>
        </button>
      </form>
      {log.status !== 'ready' ? (
        <NotReady loaded={log} />
      ) : log.value.entries.length === 0 ? (
        <p className="ops-empty">
          <Trans>Nothing recorded yet.</Trans>
        </p>
      ) : (
        <TableBox>
          <ZoneNote zones={[NO_PLACE_ZONE]} />
          <table className="ops-table">
            <caption className="visually-hidden">
              <Trans>What operators did, newest first</Trans>
            </caption>
            <thead>
              <tr>
                <th scope="col">
                  <Trans>When</Trans>
                </th>
                <th scope="col">
                  <Trans>Who</Trans>
                </th>
                <th scope="col">
                  <Trans>What</Trans>
                </th>
                <th scope="col">
                  <Trans>Order</Trans>
                </th>
                <th scope="col">
                  <Trans>Detail</Trans>
                </th>
              </tr>
            </thead>
            <tbody>
              {log.value.entries.map((entry) => {
                const words = AUDIT_ACTIONS[entry.action]
                return (
                  <tr key={entry.id}>
                    <td>{dateTimeIn(entry.atEpochMs, i18n.locale, NO_PLACE_ZONE)}</td>
                    <td>{entry.operatorEmail ?? <Trans>the shop</Trans>}</td>
                    <td>{words ? i18n._(words) : <Code>{entry.action}</Code>}</td>
                    <td>
                      {entry.orderGuid ? (
                        <a href={`/ops/orders?order=${entry.orderGuid}`}>
                          <Code>{entry.orderGuid.slice(0, 8)}</Code>
                        </a>
                      ) : (
                        '—'
                      )}
                    </td>
                    <td>
                      {Object.entries(entry.detail)
                        .map(([key, value]) => {
                          const name = AUDIT_DETAIL_KEYS[key]
                          const text = typeof value === 'string' ? value : JSON.stringify(value)
                          return `${name ? i18n._(name) : key}: ${text}`
                        })
                        .join(' · ') || '—'}
                    </td>
                  </tr>
                )
              })}
            </tbody>
          </table>
        </TableBox>
      )}
    </OpsPage>
  )
}
