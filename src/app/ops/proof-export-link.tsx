import { pathOf } from '../../contract/endpoint'
import { opsBillboards } from '../../contract/ops/billboards'

// A link that downloads the proof-of-play CSV (api: /ops/proof-of-play): the browser streams the
// file to disk as the server writes it, with the operator's session cookie.

export function ProofExportLink({
  label,
  deviceId,
  from,
  to,
}: {
  label: string
  deviceId?: string | undefined
  from?: string | undefined
  to?: string | undefined
}) {
  return (
    <a
      className="ops-button ops-button--quiet"
      href={pathOf(opsBillboards.proofExport, {}, { deviceId, from, to })}
      download
    >
      {label}
    </a>
  )
}
