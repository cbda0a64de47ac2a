import { Trans, useLingui } from '@lingui/react/macro'
import { Link } from '@tanstack/react-router'
import type { MailKind, OutboxMail } from '../../contract/mail'
import { mail } from '../../contract/mail'
import { callApi } from '../lib/api'
import { problemText } from '../lib/problem-text'
import { dateTimeIn, NO_PLACE_ZONE } from './format'
import { NotReady, OpsPage, RefreshButton, RowOpener } from './ops-frame'
import { MailBodyNotes } from './outbox-one-time-link'
import { TableBox } from './table-box'
import { useAddressSearch } from './use-address-search'
import { useOpsLoad } from './use-ops-load'
import { ZoneNote } from './zone-note'

/** The mail opened, in the address (`?mail=…`): a reload keeps it. */
const OUTBOX_SEARCH_KEYS = ['mail'] as const

/**
 * The outbox (admins): every mail the shop made, newest first, sent or not. With no
 * SMTP_URL the mails stay here (status stored), so a fresh install shows each mail it would have sent;
 * a failed or retried send shows its last error.
 */
export function OutboxPage() {
  const { t, i18n } = useLingui()
  const [outbox, reload] = useOpsLoad((signal) => callApi(mail.outbox, { signal }), [])
  const [search, go] = useAddressSearch(OUTBOX_SEARCH_KEYS)
  const opened = search.mail
  const open = (id: string | undefined) => go({ mail: id })
  return (
    <OpsPage title={t`Outbox`} actions={<RefreshButton onClick={reload} />}>
      {opened ? <MailDetail key={opened} id={opened} onClose={() => open(undefined)} /> : null}
      {outbox.status !== 'ready' ? (
        <NotReady loaded={outbox} />
      ) : outbox.value.mails.length === 0 ? (
        <p className="ops-empty">
          <Trans>No mail yet.</Trans>
        </p>
      ) : (
        <TableBox>
          <ZoneNote zones={[NO_PLACE_ZONE]} />
          <table className="ops-table">
            <caption className="visually-hidden">
              <Trans>The shop's mails, newest first</Trans>
            </caption>
            <thead>
              <tr>
                <th scope="col">
                  <Trans>Subject</Trans>
                </th>
                <th scope="col">
                  <Trans>To</Trans>
                </th>
                <th scope="col">
                  <Trans>Kind</Trans>
                </th>
                <th scope="col">
                  <Trans>Order</Trans>
                </th>
                <th scope="col">
                  <Trans>Language</Trans>
                </th>
                <th scope="col">
                  <Trans>Status</Trans>
                </th>
                <th scope="col">
                  <Trans>Made</Trans>
                </th>
                <th scope="col">
                  <Trans>Sent</Trans>
                </th>
              </tr>
            </thead>
            <tbody>
              {outbox.value.mails.map((m) => (
                <tr key={m.id} aria-current={m.id === opened ? 'true' : undefined}>
                  <RowOpener open={m.id === opened} onOpen={() => open(m.id)}>
                    {m.subject}
                    {m.oneTimeLink ? (
                      <>
                        {' '}
                        <span className="ops-history__reason">({t`one-time link`})</span>
                      </>
                    ) : null}
                  </RowOpener>
                  <td>{m.to}</td>
                  <td>
                    <KindName kind={m.kind} />
                  </td>
                  <td>
                    <OrderLink guid={m.orderGuid} />
                  </td>
                  <td>{m.locale}</td>
                  <td>
                    <MailStatus mail={m} />
                  </td>
                  <td>{dateTimeIn(m.createdAtEpochMs, i18n.locale, NO_PLACE_ZONE)}</td>
                  <td>
                    {m.sentAtEpochMs !== null
                      ? dateTimeIn(m.sentAtEpochMs, i18n.locale, NO_PLACE_ZONE)
                      : '—'}
                  </td>
                </tr>
              ))}
            </tbody>
          </table>
        </TableBox>
      )}
    </OpsPage>
  )
}

/** The order's page in the console (the orders page opens it from `?order=`); an advertiser's mail has none. */
function OrderLink({ guid }: { guid: string | null }) {
  if (guid === null) return <>—</>
  return (
    <Link to="/ops/$" params={{ _splat: 'orders' }} search={{ order: guid }}>
      <code>{guid.slice(0, 8)}</code>
    </Link>
  )
}

function MailStatus({ mail: m }: { mail: OutboxMail }) {
  const { i18n } = useLingui()
  const status =
    m.status === 'sent' ? (
      <Trans>sent</Trans>
    ) : m.status === 'stored' ? (
      <Trans>kept here (no SMTP)</Trans>
    ) : m.status === 'failed' ? (
      <Trans>failed</Trans>
    ) : m.status === 'sending' ? (
      <Trans>being sent</Trans>
    ) : m.attempts > 0 ? (
      <Trans>retrying</Trans>
    ) : (
      <Trans>to send</Trans>
    )
  return (
    <>
      {status}
      {m.error ? (
        <>
          {' '}
          <span className="ops-history__reason">({problemText(i18n, m.error)})</span>
        </>
      ) : null}
    </>
  )
}

function KindName({ kind }: { kind: MailKind }) {
  switch (kind) {
    case 'confirmed':
      return <Trans>Order confirmed</Trans>
    case 'under_review':
      return <Trans>Under review</Trans>
    case 'approved':
      return <Trans>Approved</Trans>
    case 'cancelled':
      return <Trans>Cancelled and refunded</Trans>
    case 'reminder':
      return <Trans>Airs soon</Trans>
    case 'played':
      return <Trans>It played</Trans>
    case 'account_verify':
      return <Trans>Advertiser: confirm e-mail</Trans>
    case 'account_exists':
      return <Trans>Advertiser: account exists</Trans>
    case 'password_reset':
      return <Trans>Advertiser: password reset</Trans>
    case 'campaign_rejected':
      return <Trans>Campaign rejected</Trans>
    case 'campaign_charge_failed':
      return <Trans>Campaign payment failed</Trans>
    case 'campaign_booked':
      return <Trans>Campaign booked</Trans>
    case 'campaign_approved':
      return <Trans>Campaign approved</Trans>
    case 'campaign_live':
      return <Trans>Campaign on air</Trans>
    case 'campaign_receipt':
      return <Trans>Campaign daily receipt</Trans>
    case 'campaign_completed':
      return <Trans>Campaign completed</Trans>
    case 'member_invite':
      return <Trans>Advertiser: team invitation</Trans>
    case 'payment_dispute':
      return <Trans>Disputed payment</Trans>
    case 'make_good':
      return <Trans>Missed plays refunded</Trans>
    case 'billboard_offline':
      return <Trans>Billboard offline</Trans>
    case 'billboard_online':
      return <Trans>Billboard back online</Trans>
  }
}

/**
 * One mail: its facts, its plain text, and its HTML in an iframe with `sandbox=""` and srcdoc (no
 * script, no form, an opaque origin: the mail's HTML never runs in the console's page).
 */
function MailDetail({ id, onClose }: { id: string; onClose: () => void }) {
  const { t, i18n } = useLingui()
  const [loaded] = useOpsLoad(
    (signal) => callApi(mail.outboxMail, { signal, params: { id } }),
    [id],
  )
  if (loaded.status !== 'ready') return <NotReady loaded={loaded} />
  const m = loaded.value
  return (
    <article className="ops-card ops-order" aria-labelledby="ops-mail-title">
      <div className="ops-order__head">
        <h2 id="ops-mail-title" className="ops-card__title">
          {m.subject}
        </h2>
        <button type="button" className="ops-button ops-button--quiet" onClick={onClose}>
          <Trans>Close</Trans>
        </button>
      </div>
      <dl className="ops-facts">
        <dt>
          <Trans>To</Trans>
        </dt>
        <dd>{m.to}</dd>
        <dt>
          <Trans>Kind</Trans>
        </dt>
        <dd>
          <KindName kind={m.kind} />
        </dd>
        <dt>
          <Trans>Order</Trans>
        </dt>
        <dd>
          <OrderLink guid={m.orderGuid} />
        </dd>
        <dt>
          <Trans>Status</Trans>
        </dt>
        <dd>
          <MailStatus mail={m} />
        </dd>
        <dt>
          <Trans>Made</Trans>
        </dt>
        <dd>{dateTimeIn(m.createdAtEpochMs, i18n.locale, NO_PLACE_ZONE)}</dd>
        <dt>
          <Trans>Attachments</Trans>
        </dt>
        <dd>
          {m.attachments.length === 0
            ? '—'
            : m.attachments.map((a) => `${a.filename} (${a.contentType})`).join(', ')}
        </dd>
      </dl>
      <MailBodyNotes mail={m} />
      <h3 className="ops-subtitle">
        <Trans>As HTML</Trans>
      </h3>
      <iframe
        className="ops-mail-html"
        title={t`The mail as HTML`}
        sandbox=""
        srcDoc={m.html}
        referrerPolicy="no-referrer"
      />
      <h3 className="ops-subtitle">
        <Trans>As plain text</Trans>
      </h3>
      <pre className="ops-mail-text">{m.text}</pre>
    </article>
  )
}
