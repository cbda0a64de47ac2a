import {
  allEndpoints,
  declaredCodes,
  matchesPath,
  platformCodes,
} from '../../src/contract/index.ts'
import { PROBLEMS, type ProblemCode } from '../../src/contract/problems.ts'

/**
 * The refusals any endpoint may answer whatever it declares: bad input (400, always possible, the
 * OpenAPI says so once), no endpoint at that address, a crash, and the outages of a part the shop
 * runs on.
 */
const ANY_ENDPOINT = new Set<string>([
  'endpoint_not_found',
  'unknown_error',
  'database_unreachable',
  'database_unavailable',
  'storage_unavailable',
])

const routes = allEndpoints.map((e) => ({
  endpoint: e,
  codes: new Set<string>([...declaredCodes(e), ...platformCodes(e)]),
}))

/**
 * The codes of a refusal that no endpoint at that method and address declares in its `errors` (so
 * that the OpenAPI document does not list them): none, for a contract that tells the truth.
 */
export function undeclaredCodes(method: string, path: string, status: number, body: unknown) {
  if (status < 400 || typeof body !== 'object' || body === null) return []
  const codes = (body as { codes?: unknown }).codes
  if (!Array.isArray(codes)) return []
  const bare = path.split('?')[0] ?? path
  const matching = routes.filter(
    (r) => r.endpoint.method === method && matchesPath(r.endpoint, bare),
  )
  if (matching.length === 0) return []
  return codes.filter(
    (code): code is string =>
      typeof code === 'string' &&
      !ANY_ENDPOINT.has(code) &&
      PROBLEMS[code as ProblemCode]?.status !== 400 &&
      !matching.some((r) => r.codes.has(code)),
  )
}
