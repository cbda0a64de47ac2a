import { toJsonSchemaDefs } from '@valibot/to-json-schema'
import * as v from 'valibot'
import {
  ContentEntriesSchema,
  DaemonResultSchema,
  DaemonStatusSchema,
  DevicesPageSchema,
  ErrorBodySchema,
  EventSchema,
  FeatureFlagsSchema,
  GenerateRequestSchema,
  GenerateResponseSchema,
  GeneratorsResponseSchema,
  LocalConfirmRequestSchema,
  LocalConfirmResponseSchema,
  OrderCreatedSchema,
  OrderDefaultsSchema,
  OrderRequestSchema,
  OrderStatusSchema,
  OrderSummarySchema,
  PromoSchema,
  SetupIntentResponseSchema,
  SlotSearchRequestSchema,
  SlotSearchResponseSchema,
  UploadSchema,
} from '../domain/index.ts'

// GET /spotlight/live-events: {events: Event[]} (routes/spotlight.ts).
const LiveEventsSchema = v.object({ events: v.array(EventSchema) })

// issue 3: an OpenAPI document of the whole API at /api/v1/openapi.json, built from the same valibot
// schemas the server validates with, so the document cannot drift from the code.

type Op = {
  summary: string
  request?: string
  response?: string
  status?: string
  errors?: Record<string, string>
  params?: { name: string; in: 'path' | 'query' | 'header'; required?: boolean; array?: boolean }[]
  multipart?: boolean
  /** A file answer instead of JSON: its media types. */
  file?: string[]
}

const ref = (name: string) => ({ $ref: `#/components/schemas/${name}` })

const PATHS: Record<string, Record<string, Op>> = {
  '/health': { get: { summary: 'Liveness of the server', response: undefined } },
  '/spotlight/events/{slug}': {
    get: {
      summary: 'An event (spec §7 call 8)',
      params: [{ name: 'slug', in: 'path' }],
      response: 'Event',
      errors: { '404': 'Event not found' },
    },
  },
  '/spotlight/events/{slug}/devices': {
    get: {
      summary: 'The billboards of an event, paged (spec §9: 200 per page by id ascending)',
      params: [
        { name: 'slug', in: 'path' },
        { name: 'limit', in: 'query', required: false },
        { name: 'offset', in: 'query', required: false },
        { name: 'orderBy', in: 'query', required: false },
        { name: 'sortDirection', in: 'query', required: false },
      ],
      response: 'DevicesPage',
      errors: { '400': 'Bad paging', '404': 'Event not found' },
    },
  },
  '/spotlight/live-events': {
    get: {
      summary: 'Events that are not over yet ({events: Event[]}, by slug)',
      response: 'LiveEvents',
    },
  },
  '/spotlight/slots/search': {
    post: {
      summary: 'Open slots of a billboard (spec §7 call 7), with the 5-hour cut-off',
      request: 'SlotSearchRequest',
      response: 'SlotSearchResponse',
      errors: { '400': 'Bad range', '404': 'Unknown event or billboard' },
    },
  },
  '/spotlight/promos/code/{promoCode}': {
    get: {
      summary: 'A promo code for an event (spec §7 call 9)',
      params: [
        { name: 'promoCode', in: 'path' },
        { name: 'eventSlug', in: 'query' },
        { name: 'email', in: 'query', required: false },
      ],
      response: 'Promo',
      errors: {
        '404': 'Promo Code Invalid',
        '422':
          'This promo code should not be used for this event / should be used once for this event',
        '429': 'Too many lookups from this address',
      },
    },
  },
  '/content/generators': {
    get: {
      summary: 'Design templates (spec §7 call 1)',
      params: [
        { name: 'types', in: 'query', required: false, array: true },
        { name: 'widthPx', in: 'query', required: false },
        { name: 'heightPx', in: 'query', required: false },
        { name: 'modes', in: 'query', required: false, array: true },
      ],
      response: 'GeneratorsResponse',
    },
  },
  '/content/uploads': {
    post: {
      summary: 'Upload a photo or video (multipart, field file)',
      multipart: true,
      response: 'Upload',
      status: '201',
      errors: { '413': 'Too large', '415': 'Wrong type' },
    },
  },
  '/content/uploads/{id}': {
    get: { summary: 'An upload', params: [{ name: 'id', in: 'path' }], response: 'Upload' },
  },
  '/content/generate': {
    post: {
      summary: 'Render a template into billboard content (spec §7 call 2)',
      request: 'GenerateRequest',
      response: 'GenerateResponse',
    },
  },
  '/content/daemon/public/{publicToken}': {
    get: {
      summary: 'Status of an asynchronous generation (spec §7 call 3)',
      params: [{ name: 'publicToken', in: 'path' }],
      response: 'DaemonStatus',
    },
  },
  '/content/daemon/result/{publicToken}': {
    get: {
      summary: 'The key of a finished asynchronous generation (spec §7 call 4)',
      params: [{ name: 'publicToken', in: 'path' }],
      response: 'DaemonResult',
      errors: {
        '404': 'Job not found',
        '409': 'The content is not ready yet',
        '422': 'The content could not be made (the reason)',
      },
    },
  },
  '/content/files/{name}': {
    get: {
      summary:
        'A stored file (uploads and generated content), with single-range Range support (206, 416)',
      params: [
        { name: 'name', in: 'path' },
        { name: 'Range', in: 'header', required: false },
      ],
      file: ['image/png', 'image/jpeg', 'image/gif', 'video/mp4'],
      errors: { '404': 'File not found' },
    },
  },
  '/content/previews/{templateId}.png': {
    get: {
      summary: 'A picture of a template with sample texts and photo (previewImageUrl)',
      params: [{ name: 'templateId', in: 'path' }],
      file: ['image/png'],
      errors: { '404': 'Template not found', '422': 'This template cannot be rendered' },
    },
  },
  '/content/previews/{templateId}.mp4': {
    get: {
      summary:
        "A video template's example clip (examplePreviewVideoUrl), made once with ffmpeg; Range supported",
      params: [
        { name: 'templateId', in: 'path' },
        { name: 'Range', in: 'header', required: false },
      ],
      file: ['video/mp4'],
      errors: {
        '404': 'Template not found, not a video template, or no ffmpeg on this server',
        '422': 'This template cannot be rendered',
      },
    },
  },
  '/content/{opaqueKey}': {
    get: {
      summary: 'Entries of generated content (spec §7 call 5)',
      params: [{ name: 'opaqueKey', in: 'path' }],
      response: 'ContentEntries',
    },
  },
  '/feature-flags/{product}': {
    get: {
      summary: 'Feature flags per environment (spec §7 call 6)',
      params: [{ name: 'product', in: 'path' }],
      response: 'FeatureFlags',
    },
  },
  '/order/defaults': {
    get: {
      summary: 'Order defaults (spec §7 call 10)',
      params: [
        { name: 'deviceId', in: 'query' },
        { name: 'eventSlug', in: 'query' },
      ],
      response: 'OrderDefaults',
      errors: { '404': 'Unknown event or billboard' },
    },
  },
  '/order/payment/setup-intent': {
    post: { summary: 'Start saving a card (spec §7 call 11)', response: 'SetupIntentResponse' },
  },
  '/order/payment/local/confirm': {
    post: {
      summary: "Save a card with the local provider (Stripe's test cards)",
      request: 'LocalConfirmRequest',
      response: 'LocalConfirmResponse',
      errors: { '402': 'Your card was declined. (and the other test-card outcomes)' },
    },
  },
  '/order/orders': {
    post: {
      summary: 'Place an order (spec §7 call 12)',
      params: [{ name: 'Idempotency-Key', in: 'header' }],
      request: 'OrderRequest',
      response: 'OrderCreated',
      status: '201',
      errors: {
        '400': 'Validation, missing billboard content, payment binding',
        '409': 'Time slot(s) taken {slots}. Please go back and select another.',
        '413': 'Body above 64 KB',
        '422': 'Promo code messages; Idempotency-Key reused with another body',
      },
    },
  },
  '/order/events/{eventSlug}/orders/{guid}/status': {
    get: {
      summary: 'Order status (spec §7 call 13)',
      params: [
        { name: 'eventSlug', in: 'path' },
        { name: 'guid', in: 'path' },
      ],
      response: 'OrderStatus',
      errors: { '404': 'Order not found' },
    },
  },
  '/order/events/{eventSlug}/orders/{guid}': {
    get: {
      summary: 'The order as the confirmation page shows it',
      params: [
        { name: 'eventSlug', in: 'path' },
        { name: 'guid', in: 'path' },
      ],
      response: 'OrderSummary',
      errors: { '404': 'Order not found' },
    },
  },
}

let cached: unknown = null

export function openApiDocument(): unknown {
  if (cached) return cached
  const config = { target: 'draft-2020-12', errorMode: 'ignore' } as const
  const requests = toJsonSchemaDefs(
    {
      SlotSearchRequest: SlotSearchRequestSchema,
      GenerateRequest: GenerateRequestSchema,
      LocalConfirmRequest: LocalConfirmRequestSchema,
      OrderRequest: OrderRequestSchema,
    },
    { ...config, typeMode: 'input' },
  )
  const responses = toJsonSchemaDefs(
    {
      Event: EventSchema,
      LiveEvents: LiveEventsSchema,
      DevicesPage: DevicesPageSchema,
      SlotSearchResponse: SlotSearchResponseSchema,
      Promo: PromoSchema,
      GeneratorsResponse: GeneratorsResponseSchema,
      Upload: UploadSchema,
      GenerateResponse: GenerateResponseSchema,
      DaemonStatus: DaemonStatusSchema,
      DaemonResult: DaemonResultSchema,
      ContentEntries: ContentEntriesSchema,
      FeatureFlags: FeatureFlagsSchema,
      OrderDefaults: OrderDefaultsSchema,
      SetupIntentResponse: SetupIntentResponseSchema,
      LocalConfirmResponse: LocalConfirmResponseSchema,
      OrderCreated: OrderCreatedSchema,
      OrderStatus: OrderStatusSchema,
      OrderSummary: OrderSummarySchema,
      ErrorBody: ErrorBodySchema,
    },
    { ...config, typeMode: 'output' },
  )
  const paths: Record<string, Record<string, unknown>> = {}
  for (const [path, methods] of Object.entries(PATHS)) {
    paths[path] = {}
    for (const [method, op] of Object.entries(methods)) {
      const responsesDoc: Record<string, unknown> = {
        [op.status ?? '200']: {
          description: 'Success',
          content: op.file
            ? Object.fromEntries(
                op.file.map((type) => [type, { schema: { type: 'string', format: 'binary' } }]),
              )
            : {
                'application/json': {
                  schema: op.response ? ref(op.response) : { type: 'object' },
                },
              },
        },
        ...(op.file?.includes('video/mp4')
          ? {
              '206': { description: 'The range asked for' },
              '416': { description: 'Range past the end' },
            }
          : {}),
      }
      for (const [code, description] of Object.entries({
        ...op.errors,
        '400': op.errors?.['400'] ?? 'Bad input',
      })) {
        responsesDoc[code] = {
          description,
          content: { 'application/json': { schema: ref('ErrorBody') } },
        }
      }
      paths[path][method] = {
        summary: op.summary,
        parameters: (op.params ?? []).map((p) => ({
          name: p.name,
          in: p.in,
          required: p.in === 'path' ? true : (p.required ?? true),
          schema: p.array ? { type: 'array', items: { type: 'string' } } : { type: 'string' },
        })),
        ...(op.request
          ? {
              requestBody: {
                required: true,
                content: { 'application/json': { schema: ref(op.request) } },
              },
            }
          : {}),
        ...(op.multipart
          ? {
              requestBody: {
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
              },
            }
          : {}),
        responses: responsesDoc,
      }
    }
  }
  cached = {
    openapi: '3.1.0',
    info: {
      title: 'Shouts API',
      version: '1.0.0',
      description:
        'The API of the Shouts shop (shared/api-v1.md). Every non-2xx response has the body {errors: string[]}.',
    },
    servers: [{ url: '/api/v1' }],
    paths,
    components: { schemas: { ...requests, ...responses } },
  }
  return cached
}
