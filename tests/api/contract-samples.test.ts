import { randomUUID } from 'node:crypto'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import {
  allEndpoints,
  declaredCodes,
  type Endpoint,
  pathParamNames,
  platformCodes,
} from '../../src/contract/index.ts'
import { parseWithProblems } from '../../src/contract/issues.ts'
import { SHOP } from './advertiser-helpers.ts'
import { BACKENDS, type Client, client, startTestServer, type TestServer } from './helpers.ts'
import { type JsonSchema, sampleOf } from './openapi-sample.ts'
import { type SignedIn, signedInOperator } from './ops-helpers.ts'

// What a caller who trusts the OpenAPI document sends: for every endpoint with a JSON body, an
// example made from its own request schema in the document (openapi-sample.ts) is never refused for
// its shape. It may be refused for what it names (an unknown event: 404), who sends it (no token:
// 401) or a rule between its fields that a JSON schema cannot say (listed below, each with its
// code); never with a 400 about a field's type, presence or format. The document also lists, under
// each status, the problem codes the endpoint declares.

/** Refusals of a rule the document cannot state (a relation between fields, a checksum): by endpoint. */
const RULES: Record<string, readonly string[]> = {
  // the sample's end is its start: a range must end after it starts
  searchSlots: ['slot_range_invalid'],
  // a card number is checked by its checksum
  confirmLocalCard: ['incorrect_number'],
  // a phone number by its country's plan; the content key names an upload
  placeOrder: ['phone_invalid', 'missing_billboard_content', 'missing_content_metadata'],
  // a play names orderGuid and slotNumber, or campaignId: the sample names all three
  postPlayerPlays: ['field_invalid'],
  // a browser's push keys are base64url of a set length
  subscribePush: ['push_key_invalid'],
  // a password's length is the rules' (src/domain/ops.ts), told in the catalogue's words
  opsSetPassword: ['password_weak'],
  // how strong a password is, by zxcvbn
  advertiserSignUp: ['password_not_strong'],
  // the template, billboard and event it names must exist (the catalogue's, not the document's)
  generateContent: ['template_unknown', 'billboard_unknown', 'event_unknown'],
}

type Document = {
  paths: Record<string, Record<string, Operation>>
  components: { schemas: Record<string, JsonSchema> }
}
type Operation = {
  operationId: string
  parameters?: { name: string; in: string; required: boolean }[]
  requestBody?: { content: Record<string, { schema: JsonSchema }> }
  responses: Record<string, { 'x-problem-codes'?: string[] }>
}

const withJsonBody = allEndpoints.filter(
  (e): e is Endpoint & { body: Exclude<Endpoint['body'], 'multipart' | undefined> } =>
    e.body !== undefined && e.body !== 'multipart',
)

const operationOf = (doc: Document, e: Endpoint) =>
  doc.paths[e.path]?.[e.method.toLowerCase()] as Operation

const sampleBody = (doc: Document, e: Endpoint) => {
  const schema = operationOf(doc, e).requestBody?.content['application/json']?.schema
  if (!schema) throw new Error(`${e.name}: no JSON request schema in the document`)
  return sampleOf(schema, doc.components.schemas, e.name)
}

const pathOfSample = (e: Endpoint) =>
  pathParamNames(e.path).reduce((path, name) => path.replace(`{${name}}`, `sample-${name}`), e.path)

describe.each(BACKENDS)('the OpenAPI document, as a caller reads it, on %s', (backend) => {
  let server: TestServer
  let doc: Document
  let anyone: Client
  let admin: SignedIn

  beforeAll(async () => {
    server = await startTestServer(backend, { env: { PUBLIC_BASE_URL: SHOP } })
    anyone = client(server.url)
    doc = (await anyone.get<Document>('/openapi.json')).body
    admin = await signedInOperator(server, 'admin', undefined, SHOP)
  })
  afterAll(async () => {
    await server?.stop()
  })

  it("gives every JSON body a request schema whose example the endpoint's schema takes", () => {
    const refused = withJsonBody.flatMap((e) => {
      const parsed = parseWithProblems(e.body, sampleBody(doc, e))
      if (parsed.success) return []
      const codes = parsed.problems.map((p) => p.code)
      const allowed = RULES[e.name] ?? []
      return codes.every((code) => allowed.includes(code)) ? [] : [{ endpoint: e.name, codes }]
    })
    expect(refused).toEqual([])
    expect(withJsonBody.length).toBeGreaterThan(30)
  })

  it('answers an example of each JSON body with no 400 for its shape', async () => {
    const refused: { endpoint: string; status: number; codes: unknown }[] = []
    for (const e of withJsonBody) {
      // an operator's call is made signed in, so its body is read; others may stop at their guard
      const api = e.access === 'reviewer' || e.access === 'admin' ? admin.api : anyone
      // the headers the document says are required, with a value each (an idempotency key)
      const headers = Object.fromEntries(
        (operationOf(doc, e).parameters ?? [])
          .filter((p) => p.in === 'header' && p.required)
          .map((p) => [p.name, randomUUID()]),
      )
      const reply = await api.call<{ codes?: string[] }>(
        e.method,
        pathOfSample(e),
        sampleBody(doc, e),
        { ...headers, origin: SHOP },
      )
      const codes = reply.body.codes ?? []
      const allowed = RULES[e.name] ?? []
      if (reply.status === 400 && !codes.every((code) => allowed.includes(code))) {
        refused.push({ endpoint: e.name, status: reply.status, codes })
      }
    }
    expect(refused).toEqual([])
  })

  it('lists under each status the problem codes an endpoint declares', () => {
    for (const e of allEndpoints) {
      const responses = operationOf(doc, e).responses
      const listed = Object.values(responses).flatMap((r) => r['x-problem-codes'] ?? [])
      // with a JSON body's size limit on every endpoint that takes one
      expect(listed.sort(), e.name).toEqual([...declaredCodes(e), ...platformCodes(e)].sort())
    }
    // what a rate limit in front of a handler answers is listed too
    const setupIntent = allEndpoints.find((e) => e.name === 'createSetupIntent') as Endpoint
    expect(operationOf(doc, setupIntent).responses['429']?.['x-problem-codes']).toEqual([
      'too_many_requests',
    ])
    const search = allEndpoints.find((e) => e.name === 'searchSlots') as Endpoint
    expect(operationOf(doc, search).responses['413']?.['x-problem-codes']).toEqual([
      'body_too_large',
    ])
    const promo = operationOf(doc, allEndpoints.find((e) => e.name === 'getPromo') as Endpoint)
    expect(promo?.responses['422']?.['x-problem-codes']).toContain('promo_wrong_event')
  })
})
