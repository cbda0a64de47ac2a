import { Trans, useLingui } from '@lingui/react/macro'
import { type FormEvent, useState } from 'react'
import { FOUND_ORDERS_MAX, ORDERS_QUERY_MAX_LENGTH, ops } from '../../contract/ops/orders'
import { callApi } from '../lib/api'
import { TextField } from '../ui/text-field'
import { dateTimeIn } from './format'
import { NotReady, OpsPage, RowOpener } from './ops-frame'
import { OrderDetail } from './order-detail'
import { money, StateName } from './order-parts'
import { useAddressSearch } from './use-address-search'
import { useOpsLoad } from './use-ops-load'
import { ZoneNote } from './zone-note'

/** The search and the order opened, in the address (`?query=…&day=…&order=…`): a reload keeps them. */
const ORDERS_SEARCH_KEYS = ['query', 'day', 'order'] as const

/**
 * Find orders by confirmation code, e-mail or billboard (device id), and a day;
 * open one to see everything the shopper entered, the payment, what moderation found, the states it
 * went through and its proofs of play. Admins cancel and refund (with a reason the shopper receives);
 * reviewers may only refuse an order under review (api-v1 "Operations").
 */
export function OrdersPage() {
  const { t } = useLingui()
  const [address, go] = useAddressSearch(ORDERS_SEARCH_KEYS)
  const search = { query: address.query ?? '', day: address.day ?? '', order: address.order }
  const [query, setQuery] = useState(search.query)
  const [day, setDay] = useState(search.day)
  // bumped by Find and by a cancel: the results are read again even when the search is the same
  const [round, setRound] = useState(0)
  const submit = (event: FormEvent) => {
    event.preventDefault()
    go({ query: query.trim(), day, order: undefined })
    setRound((r) => r + 1)
  }
  const searching = search.query !== '' || search.day !== ''
  return (
    <OpsPage title={t`Orders`}>
      <form className="ops-search" onSubmit={submit} aria-label={t`Find orders`}>
        <TextField
          label={t`Confirmation code, e-mail or billboard`}
          value={query}
          onChange={(e) => setQuery(e.target.value)}
          maxLength={ORDERS_QUERY_MAX_LENGTH}
          autoComplete="off"
          spellCheck={false}
        />
        <TextField
          label={t`Day (optional)`}
          type="date"
          value={day}
          onChange={(e) => setDay(e.target.value)}
          className="ops-search__day"
        />
        <button type="submit" className="ops-button">
          <Trans>Find</Trans>
        </button>
      </form>
      {search.order ? (
        <OrderDetail
          key={search.order}
          guid={search.order}
          onClose={() => go({ order: undefined })}
          onChanged={() => setRound((r) => r + 1)}
        />
      ) : null}
      {searching ? (
        <OrderResults
          query={search.query}
          day={search.day}
          round={round}
          selected={search.order}
          onOpen={(guid) => go({ order: guid })}
        />
      ) : search.order ? null : (
        <p className="ops-empty">
          <Trans>Type a confirmation code, a shopper's e-mail or a billboard's device id.</Trans>
        </p>
      )}
    </OpsPage>
  )
}

function OrderResults({
  query,
  day,
  round,
  selected,
  onOpen,
}: {
  query: string
  day: string
  round: number
  selected: string | undefined
  onOpen: (guid: string) => void
}) {
  const { i18n } = useLingui()
  const [found] = useOpsLoad(
    (signal) =>
      callApi(ops.orders, { signal, query: { query, day: day || undefined } }).then(
        (r) => r.orders,
      ),
    [query, day, round],
  )
  if (found.status !== 'ready') return <NotReady loaded={found} />
  if (found.value.length === 0)
    return (
      <p className="ops-empty" role="status">
        <Trans>No order matches.</Trans>
      </p>
    )
  const max = FOUND_ORDERS_MAX
  return (
    <div className="ops-table-wrap">
      {found.value.length >= max ? (
        <p className="ops-empty" role="status">
          <Trans>
            The {max} newest orders found: add a day, or search by code or e-mail, to see older
            ones.
          </Trans>
        </p>
      ) : null}
      <ZoneNote zones={found.value.map((order) => order.device.timeZoneId)} />
      <table className="ops-table">
        <caption className="visually-hidden">
          <Trans>Orders found, newest first</Trans>
        </caption>
        <thead>
          <tr>
            <th scope="col">
              <Trans>Code</Trans>
            </th>
            <th scope="col">
              <Trans>State</Trans>
            </th>
            <th scope="col">
              <Trans>E-mail</Trans>
            </th>
            <th scope="col">
              <Trans>Billboard</Trans>
            </th>
            <th scope="col">
              <Trans>Placed</Trans>
            </th>
            <th scope="col">
              <Trans>Total</Trans>
            </th>
          </tr>
        </thead>
        <tbody>
          {found.value.map((order) => (
            <tr key={order.guid} aria-current={order.guid === selected ? 'true' : undefined}>
              <RowOpener open={order.guid === selected} onOpen={() => onOpen(order.guid)}>
                {order.confirmationCode}
              </RowOpener>
              <td>
                <StateName state={order.orderState} />
              </td>
              <td>{order.contact.email}</td>
              <td>
                {order.device.deviceId} — {order.device.location}
              </td>
              <td>{dateTimeIn(order.createdAtEpochMs, i18n.locale, order.device.timeZoneId)}</td>
              <td>{money(order, order.totalCents, i18n.locale)}</td>
            </tr>
          ))}
        </tbody>
      </table>
    </div>
  )
}
