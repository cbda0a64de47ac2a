import * as v from 'valibot'
import { DeviceSchema, PromoSchema } from '../../contract/catalogue'
import { ContentTypeSchema, LocaleSchema } from '../../contract/common'
import {
  ContentEntrySchema,
  ContentGenerationRequestSchema,
  GeneratedContentSchema as GeneratedSchema,
  TemplateSchema,
} from '../../contract/content'
import {
  OrderDefaultsSchema,
  OrderStateSchema,
  SetupIntentResponseSchema,
} from '../../contract/order'
import type { PersistedOrder } from './order'

// The schemas of what the stores save in the browser (stores/persist.ts), read back on start. A chunk
// of its own, loaded only when something saved is there to check: the first screen of a first visit
// does not need the order's wire schemas (first-screen JavaScript).

export { DeviceSchema }

const ShoutTimeSchema = v.object({
  slotNumber: v.number(),
  label: v.string(),
  deviceId: v.optional(v.string()),
})

// Its type is the store's own, so the schema cannot drift from it. The fields a shopper is still
// typing (contact, names) are read as plain strings: a draft is not yet valid.
export const PersistedOrderSchema: v.GenericSchema<unknown, PersistedOrder> = v.object({
  eventSlug: v.nullable(v.string()),
  shoutTimes: v.array(ShoutTimeSchema),
  agreements: v.object({
    safetyWarning: v.boolean(),
    terms: v.boolean(),
    noChanges: v.boolean(),
    privacyPolicy: v.boolean(),
    userGeneratedContentPolicy: v.boolean(),
  }),
  buyerName: v.string(),
  recipientName: v.string(),
  multilineMessage: v.string(),
  personalImage: v.nullable(
    v.object({
      uploadId: v.string(),
      url: v.nullable(v.string()),
      kind: ContentTypeSchema,
    }),
  ),
  payment: v.nullable(SetupIntentResponseSchema),
  formSubmitted: v.boolean(),
  card: v.nullable(v.object({ brand: v.string(), last4: v.string() })),
  orderGuid: v.nullable(v.string()),
  confirmationCode: v.nullable(v.string()),
  orderStatus: v.nullable(OrderStateSchema),
  confirmationDateEpochMs: v.nullable(v.number()),
  contactInfo: v.object({
    firstName: v.string(),
    lastName: v.string(),
    email: v.string(),
    phone: v.string(),
  }),
  orderPromo: v.nullable(PromoSchema),
  contentGenReq: v.nullable(ContentGenerationRequestSchema),
  contentKey: v.nullable(v.string()),
  orderDefaults: v.nullable(OrderDefaultsSchema),
  willReceiveMarketing: v.boolean(),
  willReceiveSms: v.boolean(),
  shareInfoWithSponsor: v.boolean(),
  idempotency: v.nullable(v.object({ key: v.string(), body: v.string() })),
  orderLocale: LocaleSchema,
})

export const SelectedTemplateSchema = v.object({
  selectedTemplate: TemplateSchema,
  activeTemplateMode: v.string(),
})

export const GeneratedContentSchema = v.object({
  generatedContent: GeneratedSchema,
  videoCompositeContent: v.nullable(ContentEntrySchema),
})

export const UploadIdsSchema = v.array(v.string())

export const DevicesSchema = v.object({
  supportedGeneratorModes: v.array(v.string()),
  valueCentsPerSlot: v.nullable(v.number()),
})
