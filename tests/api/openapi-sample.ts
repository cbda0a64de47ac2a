// A valid example of a JSON schema of the OpenAPI document, made from what the schema says alone
// (types, enums and consts, formats, lengths, bounds, patterns), the way a client generator or a
// mock server would make one: what a caller who trusts the document would send.

export type JsonSchema = {
  $ref?: string
  type?: string | string[]
  const?: unknown
  enum?: unknown[]
  anyOf?: JsonSchema[]
  oneOf?: JsonSchema[]
  allOf?: JsonSchema[]
  properties?: Record<string, JsonSchema>
  required?: string[]
  items?: JsonSchema
  prefixItems?: JsonSchema[]
  additionalProperties?: boolean | JsonSchema
  minItems?: number
  format?: string
  pattern?: string
  minLength?: number
  maxLength?: number
  minimum?: number
  maximum?: number
  exclusiveMinimum?: number
  exclusiveMaximum?: number
  multipleOf?: number
  default?: unknown
  examples?: unknown[]
}

const BY_FORMAT: Record<string, string> = {
  email: 'someone@example.org',
  uuid: '3f0c2a4e-8b7d-4c1a-9e2f-5a6b7c8d9e0f',
  'date-time': '2030-01-02T03:04:05.000Z',
  date: '2030-01-02',
  time: '03:04:05',
  uri: 'https://example.org/a',
  url: 'https://example.org/a',
  ipv4: '192.0.2.1',
  ipv6: '2001:db8::1',
}

// Strings tried, in order, against a pattern the sampler cannot read itself: the first that
// matches is the example (a test names a pattern none matches, so that one is added here).
const CANDIDATES = [
  'abc',
  'Abc',
  'a',
  'abc-123',
  'ABC123',
  '123',
  '1',
  '+33612345678',
  'FR',
  'fr',
  'EUR',
  '#ff0000',
  'DE89370400440532013000',
  '3f0c2a4e-8b7d-4c1a-9e2f-5a6b7c8d9e0f',
  'A3F0C2A48B7D4C1A',
  'a'.repeat(43),
  '0'.repeat(64),
  '2030-01-02',
  '03:04',
  'Europe/Paris',
  'playlog-1.xml',
  'https://example.org/a',
]

const fits = (s: string, schema: JsonSchema) =>
  (schema.minLength === undefined || s.length >= schema.minLength) &&
  (schema.maxLength === undefined || s.length <= schema.maxLength) &&
  (schema.pattern === undefined || new RegExp(schema.pattern, 'u').test(s))

function sampleString(schema: JsonSchema, at: string): string {
  if (schema.format && BY_FORMAT[schema.format] !== undefined) {
    const formatted = BY_FORMAT[schema.format] as string
    if (fits(formatted, schema)) return formatted
  }
  const plain = 'a'.repeat(Math.max(3, schema.minLength ?? 0))
  if (fits(plain, schema)) return plain
  const found = CANDIDATES.find((s) => fits(s, schema))
  if (found !== undefined) return found
  throw new Error(`${at}: no example string for ${JSON.stringify(schema)}`)
}

function sampleNumber(schema: JsonSchema, integer: boolean): number {
  const low =
    schema.minimum ?? (schema.exclusiveMinimum !== undefined ? schema.exclusiveMinimum + 1 : 0)
  const high =
    schema.maximum ?? (schema.exclusiveMaximum !== undefined ? schema.exclusiveMaximum - 1 : null)
  let n = Math.max(low, Math.min(1, high ?? 1))
  if (integer) n = Math.ceil(n)
  if (schema.multipleOf) n = Math.ceil(n / schema.multipleOf) * schema.multipleOf
  return n
}

/** A valid example of `schema`; `definitions` resolves `$ref`s (#/components/schemas/…). */
export function sampleOf(
  schema: JsonSchema,
  definitions: Record<string, JsonSchema> = {},
  at = '$',
): unknown {
  if (schema.$ref) {
    const name = schema.$ref.split('/').pop() as string
    const target = definitions[name]
    if (!target) throw new Error(`${at}: ${schema.$ref} is not defined`)
    return sampleOf(target, definitions, at)
  }
  if ('const' in schema) return schema.const
  if (schema.enum) return schema.enum[0]
  if (schema.examples?.length) return schema.examples[0]
  if (schema.default !== undefined) return schema.default
  const options = schema.anyOf ?? schema.oneOf
  if (options) {
    // a value rather than null where both are allowed: it says more about the schema
    const chosen = options.find((o) => o.type !== 'null') ?? options[0]
    return sampleOf(chosen as JsonSchema, definitions, at)
  }
  if (schema.allOf) {
    return Object.assign({}, ...schema.allOf.map((s) => sampleOf(s, definitions, at)))
  }
  const type = Array.isArray(schema.type)
    ? (schema.type.find((t) => t !== 'null') ?? 'null')
    : schema.type
  switch (type) {
    case 'object': {
      const out: Record<string, unknown> = {}
      for (const [key, property] of Object.entries(schema.properties ?? {})) {
        out[key] = sampleOf(property, definitions, `${at}.${key}`)
      }
      return out
    }
    case 'array': {
      if (schema.prefixItems) {
        return schema.prefixItems.map((s, i) => sampleOf(s, definitions, `${at}[${i}]`))
      }
      const count = Math.max(1, schema.minItems ?? 0)
      return Array.from({ length: count }, (_, i) =>
        sampleOf(schema.items ?? {}, definitions, `${at}[${i}]`),
      )
    }
    case 'string':
      return sampleString(schema, at)
    case 'integer':
      return sampleNumber(schema, true)
    case 'number':
      return sampleNumber(schema, false)
    case 'boolean':
      return true
    case 'null':
      return null
    default:
      return 'a'
  }
}
