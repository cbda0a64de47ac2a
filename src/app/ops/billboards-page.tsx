import type { MessageDescriptor } from '@lingui/core'
import { msg } from '@lingui/core/macro'
import { Trans, useLingui } from '@lingui/react/macro'
import { useState } from 'react'
import type { BillboardHealth, BillboardStateName } from '../../contract/billboards'
import { billboards as billboardsApi } from '../../contract/billboards'
import { type FleetBillboard, fleetCounts, fleetMatches, troubleFirst } from '../../domain/fleet'
import { callApi } from '../lib/api'
import { TextField } from '../ui/text-field'
import { StateBadge } from './billboard-card'
import { BillboardPage } from './billboard-page'
import { Code } from './code'
import { FleetMap } from './fleet-map'
import { timeUntil } from './format'
import { NotReady, OpsPage, RefreshButton } from './ops-frame'
import { ProofExportLink } from './proof-export-link'
import { useAddressSearch } from './use-address-search'
import { useOpsLoad } from './use-ops-load'
import './billboards.css'

/** The state shown, the search, and the billboard opened, in the address: a reload keeps them. */
const FLEET_KEYS = ['state', 'search', 'billboard'] as const

const STATES: readonly BillboardStateName[] = ['playing', 'stale', 'offline', 'never']
const STATE_COUNTS: Record<BillboardStateName, MessageDescriptor> = {
  playing: msg`Playing`,
  stale: msg`Late`,
  offline: msg`Offline`,
  never: msg`Never connected`,
}

const asFleet = (b: BillboardHealth): FleetBillboard & BillboardHealth => ({
  ...b,
  filesFailed: b.beat?.files.failed ?? null,
})

/**
 * The fleet (reviewers and admins): how many billboards play, are late, offline or never connected
 * (each count filters the list), a search by name, city or id, the billboards trouble first
 * (src/domain/fleet.ts), their map coloured by state, and the proof-of-play export of the fleet; a
 * billboard opens its own page (from the list or its pin).
 */
export default function BillboardsPage() {
  const { t, i18n } = useLingui()
  const [address, go] = useAddressSearch(FLEET_KEYS)
  const [search, setSearch] = useState(address.search ?? '')
  const [loaded, reload] = useOpsLoad((signal) => callApi(billboardsApi.health, { signal }), [])
  if (address.billboard) {
    return (
      <BillboardPage
        deviceId={address.billboard}
        loaded={loaded}
        reload={reload}
        onBack={() => go({ billboard: undefined })}
      />
    )
  }
  const state = STATES.find((s) => s === address.state)
  return (
    <OpsPage title={t`Billboards`} actions={<RefreshButton onClick={reload} />}>
      {loaded.status !== 'ready' ? (
        <NotReady loaded={loaded} />
      ) : loaded.value.billboards.length === 0 ? (
        <p className="ops-empty">
          <Trans>No billboard in the catalogue yet.</Trans>
        </p>
      ) : (
        (() => {
          const fleet = loaded.value.billboards.map(asFleet)
          const counts = fleetCounts(fleet)
          const shown = troubleFirst(
            fleet.filter((b) => (!state || b.state === state) && fleetMatches(b, search)),
          )
          const nowMs = loaded.value.generatedAtEpochMs
          return (
            <>
              <ul className="ops-fleet__counts" aria-label={t`The fleet by state`}>
                <li>
                  <button
                    type="button"
                    className="ops-fleet__count"
                    aria-pressed={!state}
                    onClick={() => go({ state: undefined })}
                  >
                    <strong>{fleet.length}</strong> <Trans>All</Trans>
                  </button>
                </li>
                {STATES.map((s) => (
                  <li key={s}>
                    <button
                      type="button"
                      className={`ops-fleet__count ops-fleet__count--${s}`}
                      aria-pressed={state === s}
                      onClick={() => go({ state: state === s ? undefined : s })}
                    >
                      <strong>{counts[s]}</strong> {i18n._(STATE_COUNTS[s])}
                    </button>
                  </li>
                ))}
              </ul>
              <form className="ops-search" onSubmit={(e) => e.preventDefault()}>
                <TextField
                  label={t`Find a billboard by name, city or id`}
                  value={search}
                  onChange={(e) => {
                    setSearch(e.target.value)
                    go({ search: e.target.value || undefined })
                  }}
                  type="search"
                  autoComplete="off"
                  spellCheck={false}
                />
              </form>
              <p className="ops-fleet__export">
                <ProofExportLink label={t`Proof of play of the fleet (CSV, last 30 days)`} />
              </p>
              <FleetMap billboards={shown} onOpen={(id) => go({ billboard: id })} />
              <p role="status" className="ops-zone">
                <Trans>
                  {shown.length} of {fleet.length} billboards, the ones needing someone first.
                </Trans>
              </p>
              <ul className="ops-fleet" aria-label={t`Billboards and their state`}>
                {shown.map((b) => (
                  <li key={b.deviceId} className="ops-fleet__item">
                    <button
                      type="button"
                      className="ops-linkish ops-fleet__name"
                      onClick={() => go({ billboard: b.deviceId })}
                    >
                      {b.location}
                    </button>
                    <StateBadge state={b.state} />
                    <span className="ops-fleet__meta">
                      {b.city} · <Code>{b.deviceId}</Code>
                      {b.lastSeenEpochMs !== null ? (
                        <> · {timeUntil(b.lastSeenEpochMs, nowMs, i18n.locale)}</>
                      ) : null}
                      {b.state === 'offline' && b.nextHourDue > 0 ? (
                        <strong>
                          {' '}
                          · <Trans>{b.nextHourDue} sold plays in the next hour</Trans>
                        </strong>
                      ) : null}
                    </span>
                  </li>
                ))}
              </ul>
            </>
          )
        })()
      )}
    </OpsPage>
  )
}
