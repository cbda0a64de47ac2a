import { toJsonSchema } from '@valibot/to-json-schema'
import type * as v from 'valibot'
import { ErrorBodySchema } from '../../contract/common.ts'
import { API_BASE, type Endpoint, pathParamNames, platformCodes } from '../../contract/endpoint.ts'
import { PROBLEMS } from '../../contract/problems.ts'

// /api/v1/openapi.json, generated from the endpoints of src/contract: the same schemas the server
// parses with and the app reads answers with, so a route cannot be missing from the document.

type JsonSchema = Record<string, unknown>

const config = { target: 'draft-2020-12', errorMode: 'ignore' } as const
const schemaOf = (schema: v.GenericSchema, typeMode: 'input' | 'output'): JsonSchema =>
  toJsonSchema(schema, { ...config, typeMode }) as JsonSchema

/** The query parameters of an object schema: one per key, required unless optional. */
function queryParameters(e: Endpoint): JsonSchema[] {
  if (!e.query) return []
  const json = schemaOf(e.query, 'input')
  const properties = (json.properties ?? {}) as Record<string, JsonSchema>
  const required = new Set((json.required ?? []) as string[])
  return Object.entries(properties).map(([name, schema]) => ({
    name,
    in: 'query',
    required: required.has(name),
    schema,
  }))
}

function operation(e: Endpoint, components: Record<string, JsonSchema>): JsonSchema {
  const ref = (name: string, schema: v.GenericSchema, mode: 'input' | 'output') => {
    components[name] = schemaOf(schema, mode)
    return { $ref: `#/components/schemas/${name}` }
  }
  const success = String(e.status ?? 200)
  const responses: Record<string, JsonSchema> = {}
  if (e.file) {
    responses[success] = {
      description: 'The file',
      content: Object.fromEntries(
        e.file.map((type) => [type, { schema: { type: 'string', format: 'binary' } }]),
      ),
    }
    if (e.headers?.some((h) => h.name === 'Range')) {
      responses['206'] = { description: 'The range asked for' }
    }
  } else if (e.response) {
    responses[success] = {
      description: 'Success',
      content: { 'application/json': { schema: ref(`${e.name}Response`, e.response, 'output') } },
    }
  } else {
    responses[success] = { description: 'Success, no body' }
  }
  // each problem under its status, with its code and its English text; `x-problem-codes` lists the
  // codes a client may meet in `codes` (a handler cannot answer another: router.ts DeclaredOnly)
  const problems = new Map<number, { lines: string[]; codes: string[] }>([
    [400, { lines: ['Bad input'], codes: [] }],
  ])
  for (const entry of [...(e.errors ?? []), ...platformCodes(e)]) {
    const [code, status] = typeof entry === 'string' ? [entry, PROBLEMS[entry].status] : entry
    const listed = problems.get(status) ?? { lines: [], codes: [] }
    listed.lines.push(`${code}: ${PROBLEMS[code].en}`)
    listed.codes.push(code)
    problems.set(status, listed)
  }
  for (const [status, { lines, codes }] of problems) {
    responses[String(status)] = {
      description: lines.join('; '),
      ...(codes.length > 0 ? { 'x-problem-codes': codes } : {}),
      content: { 'application/json': { schema: { $ref: '#/components/schemas/ErrorBody' } } },
    }
  }
  for (const [status, description] of Object.entries(e.statuses ?? {})) {
    responses[status] = { description: description ?? '' }
  }
  const parameters = [
    ...pathParamNames(e.path).map((name) => ({
      name,
      in: 'path',
      required: true,
      schema: { type: 'string' },
    })),
    ...queryParameters(e),
    ...(e.headers ?? []).map((h) => ({
      name: h.name,
      in: 'header',
      required: h.required,
      description: h.description,
      schema: { type: 'string' },
    })),
  ]
  const requestBody =
    e.body === 'multipart'
      ? {
          required: true,
          content: {
            'multipart/form-data': {
              schema: {
                type: 'object',
                properties: { file: { type: 'string', format: 'binary' } },
                required: ['file'],
              },
            },
          },
        }
      : e.body
        ? {
            required: true,
            content: { 'application/json': { schema: ref(`${e.name}Request`, e.body, 'input') } },
          }
        : e.rawBody
          ? {
              required: true,
              content: Object.fromEntries(
                e.rawBody.map((type) => [type, { schema: { type: 'string' } }]),
              ),
            }
          : undefined
  return {
    operationId: e.name,
    summary: e.summary,
    ...(e.access && e.access !== 'public' ? { 'x-access': e.access } : {}),
    ...(e.cors ? { 'x-cors': true } : {}),
    ...(parameters.length > 0 ? { parameters } : {}),
    ...(requestBody ? { requestBody } : {}),
    responses,
  }
}

const cache = new WeakMap<readonly Endpoint[], JsonSchema>()

/** The OpenAPI 3.1 document of these endpoints (computed once per list). */
export function openApiDocument(endpoints: readonly Endpoint[]): JsonSchema {
  const hit = cache.get(endpoints)
  if (hit) return hit
  const components: Record<string, JsonSchema> = { ErrorBody: schemaOf(ErrorBodySchema, 'output') }
  const paths: Record<string, Record<string, JsonSchema>> = {}
  for (const e of endpoints) {
    paths[e.path] ??= {}
    ;(paths[e.path] as Record<string, JsonSchema>)[e.method.toLowerCase()] = operation(
      e,
      components,
    )
  }
  const document = {
    openapi: '3.1.0',
    info: {
      title: 'Shouts API',
      version: '1.0.0',
      description:
        'The API of the Shouts shop (docs/api-v1.md in its repository). Every non-2xx response has the body {errors: string[], codes: string[], params: object[]}: the texts, a stable code for each and the values of its text, in the same order.',
    },
    servers: [{ url: API_BASE }],
    paths,
    components: { schemas: components },
  }
  cache.set(endpoints, document)
  return document
}
