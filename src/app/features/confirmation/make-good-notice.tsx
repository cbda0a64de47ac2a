import { Trans, useLingui } from '@lingui/react/macro'
import type { OrderSummary } from '../../../contract/order'
import type { EventTiming } from '../../../domain/event'
import { slotLabel } from '../../../domain/slots'
import { Notice } from '../../ui/notice'

/**
 * The make-good, as the slots are decided (some hours after each one ends): what played, the slots
 * whose plays did not, and what of the payment came back for them; the slots not decided yet are
 * checked later. Nothing while no play was missed.
 */
export function MakeGoodNotice({
  summary,
  event,
  money,
}: {
  summary: OrderSummary
  event: EventTiming
  money: (cents: number) => string
}) {
  const { i18n } = useLingui()
  const made = summary.makeGood
  if (!made || made.missed.length === 0) return null
  const proven = made.playsProven
  const due = made.playsDue
  const refund = money(made.refundCents)
  return (
    <Notice tone="info">
      <p>
        <strong>
          <Trans>Not every play happened</Trans>
        </strong>
      </p>
      <p>
        <Trans>
          The billboard showed your shout {proven} of {due} times. You do not pay for the plays that
          did not happen.
        </Trans>
      </p>
      {summary.slots.length * summary.playsPerSlot > due ? (
        <p>
          <Trans>
            Each of your other slots is checked the same way, a few hours after it ends.
          </Trans>
        </p>
      ) : null}
      <ul>
        {made.missed.map((slot) => {
          const label = slotLabel(event, summary.device.timeZoneId, slot.slotNumber, i18n.locale)
          const missed = slot.missedPlays
          const total = summary.playsPerSlot
          return (
            <li key={slot.slotNumber}>
              <Trans>
                {label}: {missed} of {total} plays did not happen
              </Trans>
            </li>
          )
        })}
      </ul>
      <p>
        {made.refundStatus === 'succeeded' ? (
          <Trans>{refund} was refunded to your card.</Trans>
        ) : made.refundStatus === 'none' ? null : (
          <Trans>{refund} is being refunded to your card.</Trans>
        )}
      </p>
    </Notice>
  )
}
