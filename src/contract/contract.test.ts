import * as v from 'valibot'
import { describe, expect, it } from 'vitest'
import {
  ContentEntriesSchema,
  DaemonResultSchema,
  DaemonStatusSchema,
  DeviceSchema,
  DevicesPageSchema,
  DevicesQuerySchema,
  ErrorBodySchema,
  EventSchema,
  EventTimingSchema,
  englishOf,
  FeatureFlagsSchema,
  GenerateRequestSchema,
  GenerateResponseSchema,
  GeneratorsQuerySchema,
  issuesToProblems,
  LocalConfirmRequestSchema,
  LocalConfirmResponseSchema,
  OrderCreatedSchema,
  OrderDefaultsQuerySchema,
  OrderDefaultsSchema,
  type OrderRequest,
  OrderRequestSchema,
  OrderStatusSchema,
  OrderSummarySchema,
  PromoQuerySchema,
  PromoSchema,
  parseWithProblems,
  SetupIntentResponseSchema,
  SlotSearchRequestSchema,
  SlotSearchResponseSchema,
  TemplateSchema,
  UploadSchema,
} from './index'

// The English the server answers for a failed parse (its problems, written by the catalogue)
const errorsOf = (schema: v.GenericSchema, input: unknown): string[] => {
  const result = parseWithProblems(schema, input)
  return result.success ? [] : result.problems.map(englishOf)
}

const event = {
  slug: 'mothers-day',
  name: "Mother's Day",
  startDateHourLocalInclusive: '2027-05-07_00',
  endDateHourLocalExclusive: '2027-05-10_00',
  slotWidthMS: 900_000,
  allowedContentGeneratorTypes: ['photo', 'video'],
  valueCentsPerSlot: 4000,
  currency: 'USD',
  branded: false,
  sponsorName: null,
  minPresaleSlotEpochMs: null,
}

const device = {
  deviceId: 'paris-opera-1',
  location: "Place de l'Opéra, facing Boulevard Haussmann",
  trafficDirection: 'North East',
  coordinates: { lat: 48.8708, lng: 2.3317 },
  viewingAreaCoordinates: [{ lat: 48.8712, lng: 2.331 }],
  screens: 2,
  imageUrl: '/catalogue/paris-opera-1.jpg',
  streetViewUrl: null,
  soldOut: false,
  unavailableForEvent: false,
  city: 'Paris',
  stateAbbr: null,
  country: 'France',
  timeZoneId: 'Europe/Paris',
  contentWidth: 1400,
  contentHeight: 400,
}

const contentGenerationRequest = {
  generatorId: 'hearts',
  deviceId: 'paris-opera-1',
  eventSlug: 'mothers-day',
  uploadId: null,
  buyerName: 'Sam',
  recipientName: 'Mom',
  multilineMessage: 'Happy\nMother’s Day',
}

const order = (): OrderRequest => ({
  entries: [{ deviceId: 'paris-opera-1', slots: [72, 73] }],
  eventSlug: 'mothers-day',
  emailAddress: 'ada@example.com',
  orderType: 'Test',
  customer: {
    firstName: 'Ada',
    lastName: 'Lovelace',
    phoneNumber: '+33 6 12 34 56 78',
    marketingAcknowledgement: { willReceive: false },
  },
  executionContentKey: 'content-key-1',
  checkout: {
    stripeData: { customerId: 'cus_1', promoCode: null, checkoutSecretKey: 'secret' },
    state: 'New',
  },
  contentSource: { ...contentGenerationRequest },
  locale: 'en',
  agreements: {
    safetyWarning: true,
    terms: true,
    noChanges: true,
    privacyPolicy: true,
    userGeneratedContentPolicy: true,
    shareInfoWithSponsor: false,
    marketingEmails: false,
    sms: false,
  },
})

describe('OrderRequestSchema (api-v1 OrderRequest)', () => {
  it('accepts the spec payload', () => {
    expect(errorsOf(OrderRequestSchema, order())).toEqual([])
    expect(v.parse(OrderRequestSchema, order()).entries[0]?.slots).toEqual([72, 73])
  })
  it('rejects unknown fields at any depth', () => {
    expect(errorsOf(OrderRequestSchema, { ...order(), totalCents: 0 })).toEqual([
      'totalCents: is not an allowed field',
    ])
    const nested = order() as unknown as { customer: Record<string, unknown> }
    nested.customer.middleName = 'B'
    expect(errorsOf(OrderRequestSchema, nested)).toEqual([
      'customer.middleName: is not an allowed field',
    ])
  })
  it('says which fields are missing', () => {
    const { eventSlug: _, ...rest } = order()
    expect(errorsOf(OrderRequestSchema, rest)).toEqual(['eventSlug: is required'])
  })
  it("returns the spec's contact messages verbatim", () => {
    const bad = order()
    bad.emailAddress = 'nope'
    bad.customer.firstName = ' '
    bad.customer.lastName = ''
    // how a number is written is the wire's; its country's rule is the server's (domain/phone.ts)
    bad.customer.phoneNumber = 'call me'
    expect(errorsOf(OrderRequestSchema, bad)).toEqual([
      'Email Address is invalid',
      'First Name should not be empty',
      'Last Name should not be empty',
      'Phone number format invalid, try: XXX-XXX-XXXX',
    ])
  })
  it('a missing content key is the missing billboard content error', () => {
    const bad = order()
    bad.executionContentKey = ''
    expect(errorsOf(OrderRequestSchema, bad)).toEqual([
      'Unable to send order due to missing billboard content. Please go back to add content.',
    ])
    const { executionContentKey: _, ...missing } = order()
    expect(errorsOf(OrderRequestSchema, missing)).toEqual([
      'Unable to send order due to missing billboard content. Please go back to add content.',
    ])
  })
  it('a missing content request is the missing metadata error', () => {
    expect(errorsOf(OrderRequestSchema, { ...order(), contentSource: null })).toEqual([
      'Failed to place order due to missing billboard content metadata',
    ])
    const { contentSource: _, ...missing } = order()
    expect(errorsOf(OrderRequestSchema, missing)).toEqual([
      'Failed to place order due to missing billboard content metadata',
    ])
  })
  it('requires the four agreements', () => {
    const bad = order()
    bad.agreements.terms = false
    bad.agreements.safetyWarning = false
    expect(errorsOf(OrderRequestSchema, bad)).toEqual([
      'Please accept the safety warning to place your order',
      'Please accept the terms and conditions to place your order',
    ])
    const optional = order()
    optional.agreements.userGeneratedContentPolicy = false
    expect(errorsOf(OrderRequestSchema, optional)).toEqual([])
  })
  it('needs slots, without repeats', () => {
    expect(errorsOf(OrderRequestSchema, { ...order(), entries: [] })).toEqual([
      'Please select at least one shout time',
    ])
    expect(
      errorsOf(OrderRequestSchema, { ...order(), entries: [{ deviceId: 'd', slots: [1, 1] }] }),
    ).toEqual(['entries.0.slots: must not list a slot twice'])
    expect(
      errorsOf(OrderRequestSchema, { ...order(), entries: [{ deviceId: 'd', slots: [-1] }] })[0],
    ).toMatch(/^entries\.0\.slots\.0: /)
  })
  it('checks order type, checkout state and locale', () => {
    const bad = { ...order(), orderType: 'Free', locale: 'es' }
    bad.checkout = { ...bad.checkout, state: 'Paid' as 'New' }
    const errors = errorsOf(OrderRequestSchema, bad)
    expect(errors).toHaveLength(3)
    expect(errors[0]).toMatch(/^orderType: /)
    expect(errors[1]).toMatch(/^checkout\.state: /)
    expect(errors[2]).toMatch(/^locale: /)
  })
  it('rejects a body that is not an object', () => {
    expect(errorsOf(OrderRequestSchema, 'hello')).toHaveLength(1)
    expect(errorsOf(OrderRequestSchema, null)[0]).not.toMatch(/undefined/)
  })
})

describe('Spotlight schemas', () => {
  it('EventSchema accepts the catalogue event and checks its timing', () => {
    expect(errorsOf(EventSchema, event)).toEqual([])
    expect(errorsOf(EventSchema, { ...event, endDateHourLocalExclusive: '2027-05-07_00' })).toEqual(
      ['endDateHourLocalExclusive: must be after startDateHourLocalInclusive'],
    )
    expect(errorsOf(EventSchema, { ...event, startDateHourLocalInclusive: '2027-05-07' })).toEqual([
      'startDateHourLocalInclusive: must be yyyy-MM-dd_HH',
    ])
    expect(errorsOf(EventSchema, { ...event, slotWidthMS: 7 * 60_000 })).toEqual([
      'slotWidthMS: must divide a day (86400000 ms) exactly',
    ])
    expect(
      errorsOf(EventTimingSchema, { ...event, startDateHourLocalInclusive: '2027-02-30_00' }),
    ).toEqual(['startDateHourLocalInclusive: must be a real calendar date and hour'])
  })
  it('DeviceSchema checks directions and time zones', () => {
    expect(errorsOf(DeviceSchema, device)).toEqual([])
    expect(errorsOf(DeviceSchema, { ...device, timeZoneId: 'Paris' })).toEqual([
      'timeZoneId: must be an IANA time zone name such as Europe/Paris',
    ])
    expect(errorsOf(DeviceSchema, { ...device, trafficDirection: 'Up' })[0]).toMatch(
      /^trafficDirection: /,
    )
    expect(errorsOf(DeviceSchema, { ...device, coordinates: { lat: 91, lng: 0 } })[0]).toMatch(
      /^coordinates\.lat: /,
    )
  })
  it('DevicesQuerySchema applies the spec paging defaults', () => {
    expect(v.parse(DevicesQuerySchema, {})).toEqual({
      limit: 200,
      offset: 0,
      orderBy: 'id',
      sortDirection: 'asc',
    })
    expect(
      v.parse(DevicesQuerySchema, { limit: '50', offset: '100', sortDirection: 'desc' }),
    ).toEqual({
      limit: 50,
      offset: 100,
      orderBy: 'id',
      sortDirection: 'desc',
    })
    expect(errorsOf(DevicesQuerySchema, { limit: '0' })).toEqual(['limit: must be at least 1'])
    expect(errorsOf(DevicesQuerySchema, { limit: '201' })).toEqual(['limit: must be at most 200'])
    expect(errorsOf(DevicesQuerySchema, { offset: '-1' })).toEqual([
      'offset: must be a whole number',
    ])
    expect(errorsOf(DevicesQuerySchema, { orderBy: 'price' })).toEqual([
      'orderBy: must be one of id, city, location',
    ])
  })
  it('DevicesPageSchema', () => {
    const page = {
      devices: [device],
      pagination: { limit: 200, offset: 0, orderBy: 'id', sortDirection: 'asc', total: 1 },
    }
    expect(errorsOf(DevicesPageSchema, page)).toEqual([])
  })
  it('SlotSearchRequestSchema is strict and needs end after start', () => {
    const search = { deviceId: 'd', eventSlug: 'mothers-day', startEpochMs: 1000, endEpochMs: 2000 }
    expect(errorsOf(SlotSearchRequestSchema, search)).toEqual([])
    expect(errorsOf(SlotSearchRequestSchema, { ...search, endEpochMs: 1000 })).toEqual([
      'endEpochMs must be after startEpochMs',
    ])
    expect(errorsOf(SlotSearchRequestSchema, { ...search, startEpochMs: 1.5 })).toEqual([
      'startEpochMs: must be a whole number of milliseconds',
    ])
    expect(errorsOf(SlotSearchRequestSchema, { ...search, extra: true })).toEqual([
      'extra: is not an allowed field',
    ])
  })
  it('SlotSearchResponseSchema', () => {
    const response = {
      openSlots: [1, 2],
      event,
      minAvailableSlotEpochMs: null,
      maxAvailableSlotEpochMs: 5,
      minPresaleSlotEpochMs: null,
      timeZoneId: 'America/New_York',
      valueCentsPerSlot: 4000,
    }
    expect(errorsOf(SlotSearchResponseSchema, response)).toEqual([])
  })
  it('PromoSchema takes either kind of promo', () => {
    expect(v.parse(PromoSchema, { promoCode: 'MOM10', percentOffTotal: 10 })).toEqual({
      promoCode: 'MOM10',
      percentOffTotal: 10,
    })
    expect(v.is(PromoSchema, { promoCode: 'FREE', centsOffTotal: 4000 })).toBe(true)
    expect(v.is(PromoSchema, { promoCode: 'BAD', percentOffTotal: 101 })).toBe(false)
    expect(v.is(PromoSchema, { promoCode: 'BAD' })).toBe(false)
  })
  it('PromoQuerySchema: event slug required, email optional but valid', () => {
    expect(errorsOf(PromoQuerySchema, { eventSlug: 'mothers-day' })).toEqual([])
    expect(errorsOf(PromoQuerySchema, { eventSlug: 'mothers-day', email: 'x' })).toEqual([
      'Email Address is invalid',
    ])
    expect(errorsOf(PromoQuerySchema, {})).toEqual(['eventSlug: is required'])
  })
})

describe('Content schemas', () => {
  it('TemplateSchema defaults the mode to DynamicHtml', () => {
    const template = {
      id: 'hearts',
      name: 'Hearts',
      types: ['photo'],
      widthPx: 1400,
      heightPx: 400,
      previewImageUrl: '/catalogue/hearts.png',
      examplePreviewVideoUrl: null,
      videoMaxLengthSeconds: null,
    }
    expect(v.parse(TemplateSchema, template).mode).toBe('DynamicHtml')
  })
  it('GeneratorsQuerySchema reads single and repeated query values', () => {
    expect(
      v.parse(GeneratorsQuerySchema, { types: 'photo', widthPx: '1400', heightPx: '400' }),
    ).toEqual({
      types: ['photo'],
      widthPx: 1400,
      heightPx: 400,
      modes: ['DynamicHtml'],
    })
    expect(
      v.parse(GeneratorsQuerySchema, { types: ['photo', 'video'], widthPx: '1', heightPx: '1' })
        .types,
    ).toEqual(['photo', 'video'])
    expect(
      errorsOf(GeneratorsQuerySchema, { types: ['gif'], widthPx: '1', heightPx: '1' })[0],
    ).toMatch(/^types\.0: /)
    expect(errorsOf(GeneratorsQuerySchema, { widthPx: 'wide' })).toEqual([
      'widthPx: must be a whole number',
      'heightPx: is required',
    ])
  })
  it('UploadSchema', () => {
    const upload = { id: 'u1', kind: 'video', status: 'processing', url: null, error: null }
    expect(errorsOf(UploadSchema, upload)).toEqual([])
    expect(errorsOf(UploadSchema, { ...upload, status: 'done' })[0]).toMatch(/^status: /)
  })
  it('GenerateRequestSchema is strict and limits the texts', () => {
    expect(errorsOf(GenerateRequestSchema, { contentGenerationRequest, async: true })).toEqual([])
    expect(
      errorsOf(GenerateRequestSchema, {
        contentGenerationRequest: { ...contentGenerationRequest, color: 'red' },
        async: false,
      }),
    ).toEqual(['contentGenerationRequest.color: is not an allowed field'])
    expect(
      errorsOf(GenerateRequestSchema, {
        contentGenerationRequest: {
          ...contentGenerationRequest,
          multilineMessage: 'x'.repeat(281),
        },
        async: false,
      })[0],
    ).toMatch(/^contentGenerationRequest\.multilineMessage: /)
  })
  it('response shapes of generation, daemon, entries and flags', () => {
    expect(
      errorsOf(GenerateResponseSchema, {
        success: true,
        generatedContent: {
          key: 'k',
          url: '/c/k.png',
          type: 'photo',
          widthPx: 1400,
          heightPx: 400,
        },
        error: null,
        asyncPublicToken: null,
      }),
    ).toEqual([])
    expect(errorsOf(DaemonStatusSchema, { error: null, completedEpochMS: 5, link: '/x' })).toEqual(
      [],
    )
    expect(errorsOf(DaemonResultSchema, { newKey: 'k2' })).toEqual([])
    expect(
      errorsOf(ContentEntriesSchema, {
        entries: [{ url: '/v.mp4', type: 'video', widthPx: 1, heightPx: 1, durationSeconds: 8 }],
      }),
    ).toEqual([])
    expect(
      errorsOf(FeatureFlagsSchema, { local: { 'show-footer': true }, dev: {}, prod: { x: false } }),
    ).toEqual([])
    expect(errorsOf(FeatureFlagsSchema, { local: { a: 'yes' }, dev: {}, prod: {} })[0]).toMatch(
      /^local\.a: /,
    )
  })
})

describe('Order schemas', () => {
  it('defaults, setup intent and local confirm', () => {
    expect(errorsOf(OrderDefaultsQuerySchema, { deviceId: 'd' })).toEqual([
      'eventSlug: is required',
    ])
    expect(
      errorsOf(OrderDefaultsSchema, {
        marketingAcknowledgement: { willReceive: true },
        isShareInfoWithSponsorVisible: false,
      }),
    ).toEqual([])
    expect(
      errorsOf(SetupIntentResponseSchema, {
        provider: 'local',
        publishableKey: null,
        clientSecret: 'seti_1_secret',
        customerId: 'cus_1',
        checkoutSecretKey: 'k',
      }),
    ).toEqual([])
    const card = {
      clientSecret: 's',
      cardNumber: '4242 4242 4242 4242',
      expMonth: 12,
      expYear: 2030,
      cvc: '123',
    }
    expect(v.parse(LocalConfirmRequestSchema, card).cardNumber).toBe('4242424242424242')
    expect(errorsOf(LocalConfirmRequestSchema, { ...card, cardNumber: '4242' })).toEqual([
      'Your card number is invalid.',
    ])
    expect(errorsOf(LocalConfirmRequestSchema, { ...card, expMonth: 13 })[0]).toMatch(/^expMonth: /)
    expect(errorsOf(LocalConfirmRequestSchema, { ...card, cvc: '12' })).toEqual([
      'cvc: must be 3 or 4 digits',
    ])
    expect(
      errorsOf(LocalConfirmResponseSchema, {
        status: 'succeeded',
        card: { brand: 'visa', last4: '4242' },
      }),
    ).toEqual([])
  })
  it('created, status, summary and error bodies', () => {
    expect(errorsOf(OrderCreatedSchema, { guid: 'g', orderState: 'Processing' })).toEqual([])
    expect(errorsOf(OrderCreatedSchema, { guid: 'g', orderState: 'Confirmed' })[0]).toMatch(
      /^orderState: /,
    )
    expect(
      errorsOf(OrderStatusSchema, {
        orderState: 'UnderReview',
        errors: [],
        confirmationDateEpochMs: 1,
      }),
    ).toEqual([])
    expect(
      errorsOf(OrderStatusSchema, {
        orderState: 'Done',
        errors: [],
        confirmationDateEpochMs: null,
      }),
    ).toHaveLength(1)
    const summary = {
      guid: '3f2b9c1d-7e4a',
      confirmationCode: '3f2b9c1d',
      eventSlug: 'mothers-day',
      eventName: "Mother's Day",
      orderState: 'Confirmed',
      errors: [],
      confirmationDateEpochMs: null,
      device: {
        deviceId: 'd',
        location: 'l',
        city: 'Austin',
        stateAbbr: 'TX',
        country: 'USA',
        timeZoneId: 'America/Chicago',
      },
      slots: [{ slotNumber: 72, startEpochMs: 1, endEpochMs: 2 }],
      contentUrl: '/c/k.png',
      contentType: 'photo',
      currency: 'USD',
      subtotalCents: 8000,
      discountCents: 800,
      totalCents: 7200,
      promoCode: 'MOM10',
      locale: 'en',
    }
    expect(errorsOf(OrderSummarySchema, summary)).toEqual([])
    expect(errorsOf(ErrorBodySchema, { errors: ['Event not found'] })).toEqual([])
    const withCodes = { errors: ['Event not found'], codes: ['event_not_found'] }
    expect(errorsOf(ErrorBodySchema, withCodes)).toEqual([])
    expect(errorsOf(ErrorBodySchema, { errors: 'Event not found' })[0]).toMatch(/^errors: /)
  })
})

describe('issuesToProblems', () => {
  it("names each issue's field and removes repeats", () => {
    const result = v.safeParse(v.object({ a: v.array(v.pipe(v.string(), v.minLength(2))) }), {
      a: ['x', 'y'],
    })
    expect(result.success).toBe(false)
    if (!result.success)
      expect(issuesToProblems(result.issues).map((p) => [p.code, p.params?.field])).toEqual([
        ['field_invalid', 'a.0'],
        ['field_invalid', 'a.1'],
      ])
    const same = v.safeParse(
      v.pipe(
        v.string(),
        v.check(() => false, 'no_slots_selected'),
        v.check(() => false, 'no_slots_selected'),
      ),
      'x',
    )
    if (!same.success)
      expect(issuesToProblems(same.issues)).toEqual([{ code: 'no_slots_selected' }])
  })
  it("keeps valibot's own words as the detail of a field's problem", () => {
    const result = v.safeParse(v.object({ n: v.number() }), { n: 'x' })
    if (!result.success)
      expect(issuesToProblems(result.issues).map(englishOf)).toEqual([
        'n: Invalid type: Expected number but received "x"',
      ])
  })
})
