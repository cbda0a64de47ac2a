import { Trans, useLingui } from '@lingui/react/macro'
import { type FormEvent, useState } from 'react'
import { FOUND_ORDERS_MAX, ORDERS_QUERY_MAX_LENGTH, ops } from '../../contract/ops/orders'
import { callApi } from '../lib/api'
import { TextField } from '../ui/text-field'
import { Code } from './code'
import { dateTimeIn } from './format'
import { NotReady, OpsPage, RowOpener } from './ops-frame'
import { OrderDetail } from './order-detail'
import { money, StateName } from './order-parts'
import { TableBox } from './table-box'
import { useAddressSearch } from './use-address-search'
import { useOpsLoad } from './use-ops-load'
import { ZoneNote } from './zone-note'

/**
 * The search, the page of the newest orders (`before`: the last order of the page before) and the
 * order opened, in the address (`?query=…&day=…&order=…`): a reload keeps them.
 */
const ORDERS_SEARCH_KEYS = ['query', 'day', 'before', 'order'] as const

/**
 * The newest orders, a page at a time, until a search: by confirmation code, e-mail or billboard
 * (device id), and a day;
 * open one to see everything the shopper entered, the payment, what moderation found, the states it
 * went through and its proofs of play. Admins cancel and refund (with a reason the shopper receives);
 * reviewers may only refuse an order under review (api-v1 "Operations").
 */
export function OrdersPage() {
  const { t } = useLingui()
  const [address, go] = useAddressSearch(ORDERS_SEARCH_KEYS)
  const search = {
    query: address.query ?? '',
    day: address.day ?? '',
    before: address.before,
    order: address.order,
  }
  const [query, setQuery] = useState(search.query)
  const [day, setDay] = useState(search.day)
  // bumped by Find and by a cancel: the results are read again even when the search is the same
  const [round, setRound] = useState(0)
  const submit = (event: FormEvent) => {
    event.preventDefault()
    go({ query: query.trim(), day, before: undefined, order: undefined })
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
      <OrderResults
        query={search.query}
        day={search.day}
        before={search.before}
        searching={searching}
        round={round}
        selected={search.order}
        onOpen={(guid) => go({ order: guid })}
        onPage={(before) => go({ before, order: undefined })}
      />
    </OpsPage>
  )
}

function OrderResults({
  query,
  day,
  before,
  searching,
  round,
  selected,
  onOpen,
  onPage,
}: {
  query: string
  day: string
  before: string | undefined
  searching: boolean
  round: number
  selected: string | undefined
  onOpen: (guid: string) => void
  onPage: (before: string | undefined) => void
}) {
  const { t, i18n } = useLingui()
  const [found] = useOpsLoad(
    (signal) =>
      callApi(ops.orders, { signal, query: { query, day: day || undefined, before } }).then(
        (r) => r.orders,
      ),
    [query, day, before, round],
  )
  if (found.status !== 'ready') return <NotReady loaded={found} />
  if (found.value.length === 0)
    return (
      <p className="ops-empty" role="status">
        {searching ? <Trans>No order matches.</Trans> : <Trans>No order yet.</Trans>}
      </p>
    )
  const max = FOUND_ORDERS_MAX
  const last = found.value[found.value.length - 1]
  return (
    <TableBox>
      {!searching ? (
        <h2 className="ops-card__title">
          <Trans>Newest orders</Trans>
        </h2>
      ) : null}
      {searching && found.value.length >= max ? (
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
          {searching ? t`Orders found, newest first` : t`The newest orders`}
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
                <Code>{order.confirmationCode}</Code>
              </RowOpener>
              <td>
                <StateName state={order.orderState} />
              </td>
              <td>{order.contact.email}</td>
              <td>
                <Code>{order.device.deviceId}</Code> — {order.device.location}
              </td>
              <td>{dateTimeIn(order.createdAtEpochMs, i18n.locale, order.device.timeZoneId)}</td>
              <td>{money(order, order.totalCents, i18n.locale)}</td>
            </tr>
          ))}
        </tbody>
      </table>
      <nav className="ops-pager" aria-label={t`Pages of orders`}>
        {before ? (
          <button
            type="button"
            className="ops-button ops-button--quiet"
            onClick={() => onPage(undefined)}
          >
            <Trans>Newest orders</Trans>
          </button>
        ) : null}
        {found.value.length >= max && last ? (
          <button type="button" className="ops-button" onClick={() => onPage(last.guid)}>
            <Trans>Older orders</Trans>
          </button>
        ) : null}
      </nav>
    </TableBox>
  )
}
