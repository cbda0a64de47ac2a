import * as v from 'valibot'
import { type BodyInputOf, type Endpoint, pathOf } from '../../contract/endpoint'
import { apiRequest } from '../lib/api'

/**
 * Calls a console endpoint that answers 204 without a body (sign-in, sign-out, set-password). Here
 * rather than beside callApi in app/lib: the shop's first screen carries no byte of the console.
 */
export async function callNoContent<E extends Endpoint & { readonly status: 204 }>(
  endpoint: E,
  body?: BodyInputOf<E>,
): Promise<void> {
  await apiRequest((pathOf as (e: Endpoint) => string)(endpoint), v.null(), {
    method: endpoint.method,
    body,
  })
}
