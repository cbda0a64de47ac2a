import { problem, type Refusal } from '../platform/http/errors.ts'
import type { PromoError } from './promos.ts'
import type { CatalogueError } from './service.ts'

// The answer to each of the catalogue's errors (its status and English are the contract's
// catalogue): the promo errors are answered by a promo lookup and by an order naming a code.

/** spec §5 promo problems: an unknown code is a 404, a code the shopper may not use a 422. */
export const promoRefusal = <E extends PromoError>(error: E): Refusal<E['code']> => ({
  problems: [problem(error.code)],
})

/** The answer to a catalogue error: its own code, typed by the errors it may be. */
export const catalogueRefusal = <E extends CatalogueError>(error: E) =>
  refusalOf(error) as Refusal<E['code']>

function refusalOf(error: CatalogueError): Refusal {
  return {
    problems: [
      error.code === 'device_not_in_event'
        ? problem(error.code, { deviceId: error.deviceId, slug: error.slug })
        : problem(error.code),
    ],
  }
}
