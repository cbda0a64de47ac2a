// spec §5 and §9: prices in integer cents; the server prices every order itself with these rules.

export const DEFAULT_VALUE_CENTS_PER_SLOT = 4000

export type Promo = {
  promoCode: string
  centsOffTotal?: number | null
  percentOffTotal?: number | null
}

export type PromoKind = 'centsOff' | 'percentOff' | 'unknown'

export type Log = (message: string) => void

// spec §5: an unhandled promo type is logged. console.warn exists in browsers, workers and Node
// alike, so the default stays runtime-neutral; callers (and tests) pass their own logger.
export const warnLog: Log = (message) => console.warn(message)

const isAmount = (value: number | null | undefined): value is number =>
  typeof value === 'number' && Number.isFinite(value)

/** spec §5: centsOffTotal takes precedence over percentOffTotal. */
export function promoKind(promo: Promo): PromoKind {
  if (isAmount(promo.centsOffTotal)) return 'centsOff'
  if (isAmount(promo.percentOffTotal)) return 'percentOff'
  return 'unknown'
}

export function assertCents(cents: number, name = 'cents'): void {
  if (!Number.isSafeInteger(cents))
    throw new RangeError(`${name} must be whole cents, got ${cents}`)
}

/**
 * spec §5: the promo discount on a subtotal. A fixed centsOffTotal wins; otherwise percentOffTotal
 * of the subtotal, floored to whole cents (the shop never rounds a discount up); an unknown promo
 * type is logged and gives 0. The discount may exceed the subtotal: priceOrder floors the total.
 */
export function discountCents(
  subtotalCents: number,
  promo: Promo | null,
  log: Log = warnLog,
): number {
  assertCents(subtotalCents, 'subtotalCents')
  if (!promo) return 0
  switch (promoKind(promo)) {
    case 'centsOff':
      return Math.max(0, Math.floor(promo.centsOffTotal ?? 0))
    case 'percentOff':
      return Math.max(0, Math.floor((subtotalCents * (promo.percentOffTotal ?? 0)) / 100))
    default:
      log(`Unhandled promo type for promo code ${promo.promoCode}: no discount applied`)
      return 0
  }
}

export type OrderPrice = {
  subtotalCents: number
  /** the discount actually taken off: never more than the subtotal */
  discountCents: number
  totalCents: number
  paymentRequired: boolean
  firstShoutFree: boolean
}

export type PriceInput = {
  slotCount: number
  valueCentsPerSlot?: number | null
  promo?: Promo | null
  log?: Log
}

/** The price of one slot with the promo, floored at 0. */
function singleSlotTotal(valueCentsPerSlot: number, promo: Promo | null, log: Log): number {
  return Math.max(0, valueCentsPerSlot - discountCents(valueCentsPerSlot, promo, log))
}

/**
 * spec §5: subtotal = slots x value per slot (4000 when none given); total floored at 0; payment
 * required only when the total is above 0; the first shout is free when one slot with the promo
 * costs 0.
 */
export function priceOrder({
  slotCount,
  valueCentsPerSlot,
  promo = null,
  log = warnLog,
}: PriceInput): OrderPrice {
  if (!Number.isSafeInteger(slotCount) || slotCount < 0) {
    throw new RangeError(`slotCount must be a whole number of at least 0, got ${slotCount}`)
  }
  const perSlot = valueCentsPerSlot ?? DEFAULT_VALUE_CENTS_PER_SLOT
  assertCents(perSlot, 'valueCentsPerSlot')
  const subtotalCents = slotCount * perSlot
  const discount = Math.min(subtotalCents, discountCents(subtotalCents, promo, log))
  const totalCents = subtotalCents - discount
  return {
    subtotalCents,
    discountCents: discount,
    totalCents,
    paymentRequired: totalCents > 0,
    firstShoutFree: promo !== null && singleSlotTotal(perSlot, promo, () => {}) === 0,
  }
}
