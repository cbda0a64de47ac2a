import { messages } from '../../domain/index.ts'
import { problem, type Refusal } from '../platform/http/errors.ts'
import type { PromoError } from './promos.ts'
import type { CatalogueError } from './service.ts'

// The status and the text of each of the catalogue's errors; the promo errors are answered by a
// promo lookup and by an order naming a code.

/** spec §5 promo messages: an unknown code is a 404, a code the shopper may not use a 422. */
export function promoRefusal(error: PromoError): Refusal {
  switch (error.code) {
    case 'promo_invalid':
      return { status: 404, problems: [problem(error.code, messages.promoInvalid)] }
    case 'promo_wrong_event':
      return { status: 422, problems: [problem(error.code, messages.promoWrongEvent)] }
    case 'promo_once_per_customer':
      return { status: 422, problems: [problem(error.code, messages.promoOncePerCustomer)] }
  }
}

export function catalogueRefusal(error: CatalogueError): Refusal {
  return {
    problems: [
      error.code === 'device_not_in_event'
        ? problem(error.code, { deviceId: error.deviceId, slug: error.slug })
        : problem(error.code),
    ],
  }
}
