import { Trans, useLingui } from '@lingui/react/macro'
import { useState } from 'react'
import type { BillboardsHealth } from '../../contract/billboards'
import { opsBillboards, type PlayerLink } from '../../contract/ops/billboards'
import { roleAllows } from '../../domain/ops'
import { callApi } from '../lib/api'
import { BillboardCard } from './billboard-card'
import { BillboardWeek } from './billboard-week'
import { useOpsFailure } from './errors'
import { isoDayIn } from './format'
import { useOperator } from './operator'
import { Notice, NotReady, OpsPage, RefreshButton } from './ops-frame'
import { PlayerLinkShown } from './player-link-shown'
import { ProofExportLink } from './proof-export-link'
import type { Loaded } from './use-ops-load'
import { ZoneNote } from './zone-note'

/**
 * A billboard's own page (the fleet opens it with `?billboard=`): its state line and what its
 * player last said, its day as a timeline, its last 7 days (uptime and sold plays as a chart, its
 * outages, its newest proofs), its proof-of-play CSV over chosen days (its own clock's),
 * and (admins) a new player link with a copy button and a QR code, to set a screen up from a phone.
 */
export function BillboardPage({
  deviceId,
  loaded,
  reload,
  onBack,
}: {
  deviceId: string
  loaded: Loaded<BillboardsHealth>
  reload: () => void
  onBack: () => void
}) {
  const { t } = useLingui()
  const billboard =
    loaded.status === 'ready' ? loaded.value.billboards.find((b) => b.deviceId === deviceId) : null
  return (
    <OpsPage
      title={billboard ? billboard.location : t`Billboard`}
      actions={<RefreshButton onClick={reload} />}
    >
      <p>
        <button type="button" className="ops-linkish" onClick={onBack}>
          <Trans>← Every billboard</Trans>
        </button>
      </p>
      {loaded.status !== 'ready' ? (
        <NotReady loaded={loaded} />
      ) : !billboard ? (
        <Notice tone="error">
          <Trans>No billboard has this id.</Trans>
        </Notice>
      ) : (
        <>
          <ZoneNote zones={[billboard.timeZoneId]} />
          <BillboardCard billboard={billboard} nowMs={loaded.value.generatedAtEpochMs} />
          <BillboardWeek deviceId={deviceId} />
          <ProofExport
            deviceId={deviceId}
            today={isoDayIn(loaded.value.generatedAtEpochMs, billboard.timeZoneId)}
          />
          <NewPlayerLink deviceId={deviceId} />
        </>
      )}
    </OpsPage>
  )
}

/** The billboard's proof of play over the days chosen (its local days), as a CSV download. */
function ProofExport({ deviceId, today }: { deviceId: string; today: string }) {
  const { t } = useLingui()
  const [from, setFrom] = useState(today)
  const [to, setTo] = useState(today)
  return (
    <section className="ops-card" aria-labelledby="ops-billboard-proofs">
      <h2 id="ops-billboard-proofs" className="ops-card__title">
        <Trans>Proof of play</Trans>
      </h2>
      <form className="ops-search" onSubmit={(e) => e.preventDefault()}>
        <label className="ops-select">
          <span>
            <Trans>From</Trans>
          </span>
          <input type="date" value={from} max={to} onChange={(e) => setFrom(e.target.value)} />
        </label>
        <label className="ops-select">
          <span>
            <Trans>To</Trans>
          </span>
          <input type="date" value={to} min={from} onChange={(e) => setTo(e.target.value)} />
        </label>
        <ProofExportLink
          label={t`Download the CSV`}
          deviceId={deviceId}
          from={from || undefined}
          to={to || undefined}
        />
      </form>
    </section>
  )
}

/** Admins: a new player link, shown once with a copy button and its QR code. */
function NewPlayerLink({ deviceId }: { deviceId: string }) {
  const { t } = useLingui()
  const operator = useOperator()
  const failure = useOpsFailure()
  const [made, setMade] = useState<PlayerLink | null>(null)
  const [error, setError] = useState<string | null>(null)
  const [busy, setBusy] = useState(false)
  if (!roleAllows(operator.role, opsBillboards.playerLink.access)) return null
  const make = async () => {
    if (
      !window.confirm(t`The billboard's current player link stops working at once. Make a new one?`)
    )
      return
    setBusy(true)
    setError(null)
    try {
      setMade(await callApi(opsBillboards.playerLink, { params: { deviceId }, body: {} }))
    } catch (e) {
      setError(failure(e))
    } finally {
      setBusy(false)
    }
  }
  return (
    <section className="ops-card" aria-labelledby="ops-billboard-link">
      <h2 id="ops-billboard-link" className="ops-card__title">
        <Trans>Player link</Trans>
      </h2>
      {made ? (
        <>
          <p>
            <Trans>
              Shown only now: open it on the billboard's screen, or scan it with a phone.
            </Trans>
          </p>
          <PlayerLinkShown url={made.url} />
        </>
      ) : null}
      {error ? <Notice tone="error">{error}</Notice> : null}
      <button type="button" className="ops-button" onClick={make} disabled={busy}>
        <Trans>Make a new link (the old one stops)</Trans>
      </button>
    </section>
  )
}
