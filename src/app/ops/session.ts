import type { OperatorInfo } from '../../contract/ops/orders'
import { ops } from '../../contract/ops/orders'
import { ApiError, callApi } from '../lib/api'

/** The operator signed in, or null (a 401: no session, or one that ended). */
export async function currentOperator(signal?: AbortSignal): Promise<OperatorInfo | null> {
  try {
    return await callApi(ops.session, { signal })
  } catch (error) {
    if (error instanceof ApiError && error.statusCode === 401) return null
    throw error
  }
}

/** Where sign-in leads back to: a console page only (never another site, nor the shop). */
export function safeReturnPath(path: string | undefined): string | null {
  if (!path || !/^\/((fr|de)\/)?ops(\/|$|\?)/.test(path)) return null
  if (/^\/((fr|de)\/)?ops\/(sign-in|set-password)/.test(path)) return null
  return path
}
