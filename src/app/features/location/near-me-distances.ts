import { byDistance, type LngLat, roundedDistance } from '../../../domain/geo'

// "Near me"'s arithmetic and its words, loaded once the shopper has tapped it and the phone has
// answered: the location step is a first screen, and most shoppers never ask.

/** The items nearest first, each with how far it is ("350 m", "1,2 km") in the reader's language. */
export function nearestFirst<T extends { coordinates: LngLat }>(
  items: readonly T[],
  here: LngLat,
  locale: string,
): { item: T; distance: string | null }[] {
  return byDistance(items, here).map(({ item, meters }) => {
    const { value, unit } = roundedDistance(meters)
    const distance = new Intl.NumberFormat(locale, {
      style: 'unit',
      unit,
      unitDisplay: 'short',
      maximumFractionDigits: 1,
    }).format(value)
    return { item, distance }
  })
}
