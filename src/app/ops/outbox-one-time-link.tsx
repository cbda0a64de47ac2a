import { Trans, useLingui } from '@lingui/react/macro'
import { useState } from 'react'
import type { OutboxMailBody } from '../../contract/mail'
import { opsAdvertisers, type VerifiedAdvertiser } from '../../contract/ops/advertisers'
import { callApi } from '../lib/api'
import { useOpsFailure } from './errors'
import { dateTimeIn, NO_PLACE_ZONE } from './format'
import { Notice } from './ops-frame'

/**
 * What the outbox says of a mail's body: why it is hidden (a one-time link, outside a local install
 * without SMTP; an order's personal data forgotten), or that the link shown can be used (a local
 * install, where no mail leaves). An advertiser's verification mail also offers to verify the
 * account by hand, for an owner who never received it (audited).
 */
export function MailBodyNotes({ mail }: { mail: OutboxMailBody }) {
  return (
    <>
      {mail.bodyHidden === 'one_time_link' ? (
        <Notice>
          <Trans>
            This mail carries a one-time link, so its body is not shown here: only a local install
            without SMTP (APP_ENV=local) shows it, since no mail leaves one. A sent mail's body is
            blanked.
          </Trans>
        </Notice>
      ) : mail.bodyHidden === 'forgotten' ? (
        <Notice>
          <Trans>
            The personal data of this mail's order was forgotten (its lifetime ended, or its shopper
            asked): the body is no longer kept.
          </Trans>
        </Notice>
      ) : mail.oneTimeLink ? (
        <Notice>
          <Trans>
            This mail carries a one-time link, shown because this is a local install without SMTP,
            where no mail leaves. Whoever opens the link first uses it.
          </Trans>
        </Notice>
      ) : null}
      {mail.kind === 'account_verify' ? <VerifyByHand email={mail.to} /> : null}
    </>
  )
}

/** Verifies the advertiser's account by hand, once the admin knows who asks. */
function VerifyByHand({ email }: { email: string }) {
  const { i18n } = useLingui()
  const failure = useOpsFailure()
  const [busy, setBusy] = useState(false)
  const [done, setDone] = useState<VerifiedAdvertiser | null>(null)
  const [error, setError] = useState<string | null>(null)
  const verify = async () => {
    setBusy(true)
    setError(null)
    try {
      setDone(await callApi(opsAdvertisers.verifyAdvertiser, { body: { email } }))
    } catch (e) {
      setError(failure(e))
    } finally {
      setBusy(false)
    }
  }
  if (done) {
    // the outbox names its zone once (UTC: a sign-up belongs to no place)
    const at = dateTimeIn(done.verifiedAtEpochMs, i18n.locale, NO_PLACE_ZONE)
    return (
      <Notice tone="success">
        {done.changed ? (
          <Trans>
            The account of {done.email} ({done.company}) is verified: its owner can sign in now.
          </Trans>
        ) : (
          <Trans>
            The account of {done.email} ({done.company}) was verified already, on {at}.
          </Trans>
        )}
      </Notice>
    )
  }
  return (
    <div className="ops-card">
      <p>
        <Trans>
          The owner never received this mail? Once you know it is them who asks, verify their
          account by hand. The audit log keeps that you did.
        </Trans>
      </p>
      {error ? <Notice tone="error">{error}</Notice> : null}
      <button type="button" className="ops-button" disabled={busy} onClick={() => void verify()}>
        <Trans>Verify this account by hand</Trans>
      </button>
    </div>
  )
}
