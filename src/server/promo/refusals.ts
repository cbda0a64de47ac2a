import { problem, type Refusal } from '../platform/http/errors.ts'
import type { PromoError } from './service.ts'

// The answer to each promo error (its status and English are the catalogue's): answered by a promo
// lookup and by an order naming a code.

/** spec §5 promo problems: an unknown code is a 404, a code the shopper may not use a 422. */
export const promoRefusal = (error: PromoError): Refusal => ({ problems: [problem(error.code)] })
