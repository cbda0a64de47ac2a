import { messages } from '../../domain/index.ts'
import { problem, type Refusal } from '../platform/http/errors.ts'
import type { PromoError } from './service.ts'

// The status and the text of each promo error: answered by a promo lookup and by an order naming a
// code.

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
