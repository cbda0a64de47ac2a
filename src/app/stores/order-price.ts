import { DEFAULT_VALUE_CENTS_PER_SLOT, priceOrder } from '../../domain/price'
import { devicesStore } from './devices'
import { eventStore } from './event'
import { orderStore } from './order'

/** The price per slot the shop quotes now: the slot search answer, else the event's, else spec §9's default. */
export function valueCentsPerSlot(): number {
  return (
    devicesStore.slots?.valueCentsPerSlot ??
    devicesStore.valueCentsPerSlot ??
    eventStore.event?.valueCentsPerSlot ??
    DEFAULT_VALUE_CENTS_PER_SLOT
  )
}

/** The order's price, always from the domain rule (spec §5). */
export function currentOrderPrice(slotCount = orderStore.shoutTimes.length) {
  return priceOrder({
    slotCount,
    valueCentsPerSlot: valueCentsPerSlot(),
    promo: orderStore.orderPromo,
  })
}
