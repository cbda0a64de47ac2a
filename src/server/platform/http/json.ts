import { promisify } from 'node:util'
import { gzip } from 'node:zlib'
import type { Context } from 'hono'
import type { ContentfulStatusCode } from 'hono/utils/http-status'
import type * as v from 'valibot'
import { parseWithProblems } from '../../../contract/issues.ts'
import { fail, HttpError, known, problem, refuse } from './errors.ts'

// A JSON body above 64 KB is refused with 413 before it is read whole.
export const MAX_JSON_BYTES = 64 * 1024
/**
 * No request of api-v1 nests deeper than 5 levels; a 6 KB body of 3,000 nested
 * arrays overflowed the stack of whatever walked it afterwards (the order's request hash). Bodies
 * deeper than this are refused before they are parsed, hashed or validated.
 */
export const MAX_JSON_DEPTH = 32

/** The deepest nesting of arrays and objects in a JSON text (brackets inside strings aside). */
export function jsonDepth(text: string): number {
  let depth = 0
  let deepest = 0
  let inString = false
  for (let i = 0; i < text.length; i++) {
    const ch = text.charCodeAt(i)
    if (inString) {
      if (ch === 0x5c)
        i++ // a backslash escapes the next character
      else if (ch === 0x22) inString = false
    } else if (ch === 0x22) inString = true
    else if (ch === 0x5b || ch === 0x7b) {
      depth++
      if (depth > deepest) deepest = depth
    } else if (ch === 0x5d || ch === 0x7d) depth--
  }
  return deepest
}

const tooLarge = (limit: number) =>
  new HttpError({ problems: [problem('body_too_large', { kb: limit / 1024 })] })

/**
 * A body that ends before its length (the client went away mid-body): an answer for
 * nobody, but an ordinary one, never an "unhandled error" in the logs.
 */
const incomplete = () => new HttpError({ problems: [problem('body_incomplete')] })

/** The request body as text (not JSON: a player's XML log): 413 past `limit` bytes. */
export async function readText(c: Context, limit: number): Promise<string> {
  return readLimited(c, limit)
}

async function readLimited(c: Context, limit: number): Promise<string> {
  try {
    return await readLimitedOrThrow(c, limit)
  } catch (error) {
    if (error instanceof HttpError) throw error
    throw incomplete()
  }
}

async function readLimitedOrThrow(c: Context, limit: number): Promise<string> {
  const declared = c.req.header('content-length')
  if (declared !== undefined && Number(declared) > limit) {
    throw tooLarge(limit)
  }
  // With a declared length under the limit the body is read at once; without one it is streamed
  // and cut off at the limit.
  if (declared !== undefined && /^\d+$/.test(declared)) return c.req.text()
  const body = c.req.raw.body
  if (!body) return ''
  const reader = body.getReader()
  const chunks: Uint8Array[] = []
  let size = 0
  for (;;) {
    const { done, value } = await reader.read()
    if (done) break
    size += value.byteLength
    if (size > limit) {
      await reader.cancel().catch(() => undefined)
      throw tooLarge(limit)
    }
    chunks.push(value)
  }
  return Buffer.concat(chunks).toString('utf8')
}

// A body is read once; middleware and the handler of one request share what was read.
const parsedBodies = new WeakMap<Request, unknown>()

/** The request body as JSON: 413 when too large, 400 when it is not JSON. */
export async function readJson(c: Context, limit = MAX_JSON_BYTES): Promise<unknown> {
  if (parsedBodies.has(c.req.raw)) return parsedBodies.get(c.req.raw)
  const type = c.req.header('content-type') ?? ''
  if (!/^application\/(?:[\w.+-]+\+)?json\b/i.test(type)) {
    fail(problem('body_not_json'))
  }
  const text = await readLimited(c, limit)
  if (text.trim() === '') fail(problem('body_empty'))
  // PostgreSQL text cannot hold NUL: such a value could never be stored or matched.
  if (text.includes('\\u0000') || text.includes('\u0000')) {
    fail(problem('body_contains_nul'))
  }
  if (jsonDepth(text) > MAX_JSON_DEPTH) {
    fail(problem('body_too_deep', { levels: MAX_JSON_DEPTH }))
  }
  let json: unknown
  try {
    json = JSON.parse(text)
  } catch {
    fail(problem('body_malformed'))
  }
  parsedBodies.set(c.req.raw, json)
  return json
}

/** Reads and validates a JSON body with a domain schema: 400 with every problem otherwise. */
export async function readBody<TSchema extends v.GenericSchema>(
  c: Context,
  schema: TSchema,
): Promise<v.InferOutput<TSchema>> {
  const parsed = parseWithProblems(schema, await readJson(c))
  // api-v1: bad input is a 400, whatever the codes of its problems answer alone
  if (!parsed.success) return refuse({ status: 400, problems: parsed.problems.map(known) })
  return parsed.output
}

/** Validates the query string with a domain schema (repeated keys become lists). */
export function readQuery<TSchema extends v.GenericSchema>(
  c: Context,
  schema: TSchema,
): v.InferOutput<TSchema> {
  const all = c.req.queries()
  const query: Record<string, string | string[]> = {}
  for (const [key, values] of Object.entries(all)) {
    query[key] = values.length === 1 ? (values[0] as string) : values
  }
  const parsed = parseWithProblems(schema, query)
  if (!parsed.success) return refuse({ status: 400, problems: parsed.problems.map(known) })
  return parsed.output
}

// JSON answers travel gzipped when the client accepts it and they are large enough to gain (device
// lists, the OpenAPI document, slot lists). this replaced Hono's compress middleware, which
// added `Vary` to every JSON answer after the fact and so rebuilt each one as a streamed Response (a
// fifth of the trivial endpoint's cost); here the body is at hand when the answer is made.
export const COMPRESS_FROM_BYTES = 1024
const gzipAsync = promisify(gzip)
/** Whether Accept-Encoding names gzip (or *) without q=0. */
export function acceptsGzip(header: string | undefined): boolean {
  if (!header) return false
  for (const part of header.split(',')) {
    const [coding, ...params] = part.trim().toLowerCase().split(';')
    if (coding !== 'gzip' && coding !== '*') continue
    const q = params.map((p) => p.trim()).find((p) => p.startsWith('q='))
    if (!q || Number(q.slice(2)) > 0) return true
  }
  return false
}

const PLAIN_JSON = { 'Content-Type': 'application/json', Vary: 'Accept-Encoding' }
const GZIPPED_JSON = { ...PLAIN_JSON, 'Content-Encoding': 'gzip' }

/** Answers a JSON text, gzipped (on libuv's thread pool) when it pays and the client accepts it. */
export async function jsonAnswer(
  c: Context,
  json: string,
  status: ContentfulStatusCode = 200,
): Promise<Response> {
  if (json.length >= COMPRESS_FROM_BYTES && acceptsGzip(c.req.header('accept-encoding'))) {
    return c.body(await gzipAsync(json), status, GZIPPED_JSON)
  }
  return c.body(json, status, PLAIN_JSON)
}

/** A JSON answer kept as bytes for the next asker, gzipped at most once (when a client accepts it). */
export type KeptJson = {
  readonly bytes: Uint8Array<ArrayBuffer>
  gzipped: Promise<Uint8Array<ArrayBuffer>> | null
}

export const keptJson = (json: string): KeptJson => ({
  bytes: new Uint8Array(Buffer.from(json)),
  gzipped: null,
})

/** Answers kept JSON as jsonAnswer would answer its text, without encoding or compressing it again. */
export async function keptJsonAnswer(c: Context, kept: KeptJson): Promise<Response> {
  if (kept.bytes.length >= COMPRESS_FROM_BYTES && acceptsGzip(c.req.header('accept-encoding'))) {
    kept.gzipped ??= gzipAsync(kept.bytes).then(
      (body) => new Uint8Array(body),
      (error: unknown) => {
        kept.gzipped = null // tried again by the next asker
        throw error
      },
    )
    return c.body(await kept.gzipped, 200, GZIPPED_JSON)
  }
  return c.body(kept.bytes, 200, PLAIN_JSON)
}
