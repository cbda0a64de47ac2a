import { Trans } from '@lingui/react/macro'
import { zonesOf } from './format'

/**
 * The zone a view's times are written in, said once at its top: "Times in Europe/Paris". A view
 * whose times are on several clocks says so and names them; each time is then on its own place's
 * clock (a slot on its billboard's).
 */
export function ZoneNote({ zones }: { zones: readonly string[] }) {
  const distinct = zonesOf(zones)
  if (distinct.length === 0) return null
  const list = distinct.join(', ')
  return (
    <p className="ops-zone">
      {distinct.length === 1 ? (
        <Trans>Times in {list}</Trans>
      ) : (
        <Trans>Times on each place's own clock: {list}</Trans>
      )}
    </p>
  )
}
