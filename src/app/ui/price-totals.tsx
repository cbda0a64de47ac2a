import { Trans } from '@lingui/react/macro'
import type { OrderPrice } from '../../domain/price'
import { Notice } from './notice'

type Props = {
  price: Pick<OrderPrice, 'subtotalCents' | 'discountCents' | 'totalCents'>
  /** Formats cents in the event's currency and the current locale. */
  money: (cents: number) => string
  /** The applied promo, named beside the discount. */
  promoCode?: string | null
}

/** Subtotal, discount and total of the order (spec §5), as checkout and review show them. */
export function PriceTotals({ price, money, promoCode }: Props) {
  return (
    <dl className="totals">
      <div>
        <dt>
          <Trans>Subtotal</Trans>
        </dt>
        <dd>{money(price.subtotalCents)}</dd>
      </div>
      {price.discountCents > 0 || promoCode ? (
        <div>
          <dt>
            <Trans>Discount</Trans>
            {promoCode ? ` (${promoCode})` : ''}
          </dt>
          <dd>−{money(price.discountCents)}</dd>
        </div>
      ) : null}
      <div className="totals__total">
        <dt>
          <Trans>Total</Trans>
        </dt>
        <dd>{money(price.totalCents)}</dd>
      </div>
    </dl>
  )
}

/** spec §5 "first shout free": one slot with the promo costs 0, and the shopper is told so. */
export function FirstShoutFree({ promoCode }: { promoCode: string }) {
  return (
    <Notice tone="success">
      <Trans>Your first shout is free with the promo code {promoCode}.</Trans>
    </Notice>
  )
}
