import { Trans, useLingui } from '@lingui/react/macro'
import { ops } from '../../contract/ops/orders'
import { callApi } from '../lib/api'
import { dateTimeIn, NO_PLACE_ZONE } from './format'
import { NotReady, OpsPage, RefreshButton } from './ops-frame'
import { useOpsLoad } from './use-ops-load'
import { ZoneNote } from './zone-note'

/** The audit log (admins): who did what, when, to which order; newest first. */
export function AuditPage() {
  const { t, i18n } = useLingui()
  const [log, reload] = useOpsLoad((signal) => callApi(ops.audit, { signal, query: {} }), [])
  return (
    <OpsPage title={t`Audit log`} actions={<RefreshButton onClick={reload} />}>
      {log.status !== 'ready' ? (
        <NotReady loaded={log} />
      ) : log.value.entries.length === 0 ? (
        <p className="ops-empty">
          <Trans>Nothing recorded yet.</Trans>
        </p>
      ) : (
        <div className="ops-table-wrap">
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
              {log.value.entries.map((entry) => (
                <tr key={entry.id}>
                  <td>{dateTimeIn(entry.atEpochMs, i18n.locale, NO_PLACE_ZONE)}</td>
                  <td>{entry.operatorEmail ?? '—'}</td>
                  {/* the action's stable name (sign_in, approve, cancel…), as the log keeps it */}
                  <td>
                    <code>{entry.action}</code>
                  </td>
                  <td>{entry.orderGuid ?? '—'}</td>
                  <td>
                    {Object.entries(entry.detail)
                      .map(([key, value]) => `${key}: ${JSON.stringify(value)}`)
                      .join(', ') || '—'}
                  </td>
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      )}
    </OpsPage>
  )
}
