import { Temporal } from 'temporal-polyfill'
import { formatDateHour } from '../../domain/dates.ts'
import { banner, screen, templates } from './demo-templates.ts'
import type { CatalogueInput } from './format.ts'

// The catalogue a new shop starts with: real places, a live event that starts on
// the day of import and runs 14 days, the spec's special events (§9), and promo codes for every rule.
// An event has one currency, so the live event is sold in each place's own: the euro event over
// Paris and Berlin, and beside it the same offer in London (pounds) and New York (dollars), named
// apart so that no event's name contains another's.

export const LIVE_EVENT_SLUG = 'share-the-love'
export const LIVE_UK_EVENT_SLUG = 'love-london'
export const LIVE_US_EVENT_SLUG = 'love-new-york'
export const LIVE_EVENT_DAYS = 14
const QUARTER_HOUR_MS = 15 * 60 * 1000
const DAY_MS = 24 * 60 * 60 * 1000

/**
 * A drawn picture of a billboard (an inline SVG, which the CSP allows as a data: image), so a fresh
 * shop shows something real without shipping photographs; an operator's catalogue names its own.
 */
function billboardPicture(deviceId: string): string {
  const city = deviceId.split('-')[0] ?? ''
  const sky: Record<string, string> = {
    paris: '#90caf9',
    london: '#b0bec5',
    berlin: '#ffcc80',
    nyc: '#ce93d8',
  }
  const svg =
    `<svg xmlns='http://www.w3.org/2000/svg' width='640' height='360' viewBox='0 0 640 360'>` +
    `<rect width='640' height='360' fill='${sky[city] ?? '#90caf9'}'/>` +
    `<rect x='0' y='300' width='640' height='60' fill='#546e7a'/>` +
    `<rect x='300' y='230' width='40' height='80' fill='#37474f'/>` +
    `<rect x='110' y='50' width='420' height='190' rx='10' fill='#263238'/>` +
    `<rect x='124' y='64' width='392' height='162' rx='4' fill='#fafafa'/>` +
    `<text x='320' y='158' font-family='sans-serif' font-size='30' text-anchor='middle' fill='#c2185b'>${deviceId}</text></svg>`
  return `data:image/svg+xml,${encodeURIComponent(svg)}`
}

const devices: NonNullable<CatalogueInput['devices']> = [
  {
    deviceId: 'paris-opera-1',
    location: "Place de l'Opéra, facing Boulevard Haussmann",
    city: 'Paris',
    stateAbbr: null,
    country: 'France',
    timeZoneId: 'Europe/Paris',
    coordinates: { lat: 48.8708, lng: 2.3317 },
    viewingAreaCoordinates: [
      { lat: 48.8712, lng: 2.331 },
      { lat: 48.8712, lng: 2.3325 },
      { lat: 48.8703, lng: 2.3325 },
    ],
    trafficDirection: 'North East',
    screens: 2,
    imageUrl: billboardPicture('paris-opera-1'),
    // the picture's white screen (billboardPicture): the keepsake page shows the shout there
    screenCorners: [
      { x: 124 / 640, y: 64 / 360 },
      { x: 516 / 640, y: 64 / 360 },
      { x: 516 / 640, y: 226 / 360 },
      { x: 124 / 640, y: 226 / 360 },
    ],
    // catalogue-format "Advertising": sold to advertisers
    impressionsPerPlay: 1200,
    adCpmCents: 800,
    adCurrency: 'EUR',
    ...banner,
  },
  {
    deviceId: 'paris-champs-elysees',
    location: 'Avenue des Champs-Élysées at Rue de Berri',
    city: 'Paris',
    stateAbbr: null,
    country: 'France',
    timeZoneId: 'Europe/Paris',
    coordinates: { lat: 48.8723, lng: 2.3039 },
    viewingAreaCoordinates: [
      { lat: 48.8727, lng: 2.3031 },
      { lat: 48.8727, lng: 2.3047 },
      { lat: 48.8719, lng: 2.3047 },
    ],
    trafficDirection: 'West',
    screens: 1,
    imageUrl: billboardPicture('paris-champs-elysees'),
    // catalogue-format "Advertising": sold to advertisers
    impressionsPerPlay: 1500,
    adCpmCents: 900,
    adCurrency: 'EUR',
    ...banner,
  },
  {
    deviceId: 'paris-republique',
    location: 'Place de la République, north side',
    city: 'Paris',
    stateAbbr: null,
    country: 'France',
    timeZoneId: 'Europe/Paris',
    coordinates: { lat: 48.8675, lng: 2.3637 },
    viewingAreaCoordinates: [
      { lat: 48.8679, lng: 2.3629 },
      { lat: 48.8679, lng: 2.3645 },
      { lat: 48.8671, lng: 2.3645 },
    ],
    trafficDirection: 'South',
    screens: 1,
    imageUrl: billboardPicture('paris-republique'),
    // catalogue-format "Advertising": sold to advertisers
    impressionsPerPlay: 800,
    adCpmCents: 700,
    adCurrency: 'EUR',
    ...banner,
  },
  {
    deviceId: 'london-piccadilly-1',
    location: 'Piccadilly Circus, above Shaftesbury Avenue',
    city: 'London',
    stateAbbr: null,
    country: 'United Kingdom',
    timeZoneId: 'Europe/London',
    coordinates: { lat: 51.5101, lng: -0.1344 },
    viewingAreaCoordinates: [
      { lat: 51.5098, lng: -0.1351 },
      { lat: 51.5104, lng: -0.1351 },
      { lat: 51.5104, lng: -0.1337 },
    ],
    trafficDirection: 'East',
    screens: 2,
    imageUrl: billboardPicture('london-piccadilly-1'),
    // catalogue-format "Advertising": sold to advertisers
    impressionsPerPlay: 2000,
    adCpmCents: 900,
    adCurrency: 'GBP',
    streetViewUrl: 'https://www.google.com/maps/@51.5101,-0.1344,3a,75y,90t',
    ...screen,
  },
  {
    deviceId: 'london-kings-cross',
    location: "Euston Road, opposite King's Cross station",
    city: 'London',
    stateAbbr: null,
    country: 'United Kingdom',
    timeZoneId: 'Europe/London',
    coordinates: { lat: 51.5304, lng: -0.1239 },
    viewingAreaCoordinates: [
      { lat: 51.5301, lng: -0.1246 },
      { lat: 51.5307, lng: -0.1246 },
      { lat: 51.5307, lng: -0.1232 },
    ],
    trafficDirection: 'West',
    screens: 1,
    imageUrl: billboardPicture('london-kings-cross'),
    // spec §8: the sold_out badge
    soldOut: true,
    ...banner,
  },
  {
    deviceId: 'berlin-alexanderplatz',
    location: 'Alexanderplatz, by the World Clock',
    city: 'Berlin',
    stateAbbr: null,
    country: 'Germany',
    timeZoneId: 'Europe/Berlin',
    coordinates: { lat: 52.5215, lng: 13.4133 },
    viewingAreaCoordinates: [
      { lat: 52.5211, lng: 13.4126 },
      { lat: 52.5219, lng: 13.4126 },
      { lat: 52.5219, lng: 13.414 },
    ],
    trafficDirection: 'North West',
    screens: 1,
    imageUrl: billboardPicture('berlin-alexanderplatz'),
    // catalogue-format "Advertising": sold to advertisers
    impressionsPerPlay: 1100,
    adCpmCents: 650,
    adCurrency: 'EUR',
    ...banner,
  },
  {
    deviceId: 'berlin-potsdamer-platz',
    location: 'Potsdamer Platz, corner of Leipziger Straße',
    city: 'Berlin',
    stateAbbr: null,
    country: 'Germany',
    timeZoneId: 'Europe/Berlin',
    coordinates: { lat: 52.5096, lng: 13.3761 },
    viewingAreaCoordinates: [
      { lat: 52.5092, lng: 13.3754 },
      { lat: 52.51, lng: 13.3754 },
      { lat: 52.51, lng: 13.3768 },
    ],
    trafficDirection: 'South East',
    screens: 2,
    imageUrl: billboardPicture('berlin-potsdamer-platz'),
    // catalogue-format "Advertising": sold to advertisers
    impressionsPerPlay: 900,
    adCpmCents: 600,
    adCurrency: 'EUR',
    ...banner,
  },
  {
    deviceId: 'nyc-times-square-1',
    location: 'Times Square, 7th Avenue at West 46th Street',
    city: 'New York',
    stateAbbr: 'NY',
    country: 'United States',
    timeZoneId: 'America/New_York',
    coordinates: { lat: 40.758, lng: -73.9855 },
    viewingAreaCoordinates: [
      { lat: 40.7576, lng: -73.9862 },
      { lat: 40.7584, lng: -73.9862 },
      { lat: 40.7584, lng: -73.9848 },
    ],
    trafficDirection: 'North',
    screens: 2,
    imageUrl: billboardPicture('nyc-times-square-1'),
    // catalogue-format "Advertising": sold to advertisers
    impressionsPerPlay: 3000,
    adCpmCents: 1200,
    adCurrency: 'USD',
    streetViewUrl: 'https://www.google.com/maps/@40.758,-73.9855,3a,75y,0t',
    ...screen,
  },
  {
    deviceId: 'nyc-union-square',
    location: 'Union Square, East 14th Street',
    city: 'New York',
    stateAbbr: 'NY',
    country: 'United States',
    timeZoneId: 'America/New_York',
    coordinates: { lat: 40.7347, lng: -73.9904 },
    viewingAreaCoordinates: [
      { lat: 40.7343, lng: -73.9911 },
      { lat: 40.7351, lng: -73.9911 },
      { lat: 40.7351, lng: -73.9897 },
    ],
    trafficDirection: 'South West',
    screens: 1,
    imageUrl: billboardPicture('nyc-union-square'),
    // catalogue-format "Advertising": sold to advertisers
    impressionsPerPlay: 1000,
    adCpmCents: 800,
    adCurrency: 'USD',
    ...banner,
  },
]

const allTemplateIds = templates.map((t) => t.id)
const onDevices = (ids: string[], unavailable: string[] = []) =>
  ids.map((deviceId) => ({ deviceId, unavailable: unavailable.includes(deviceId) }))

/** The demo catalogue for an import made at `nowEpochMs`: the live events start that day at 00. */
export function demoCatalogue(nowEpochMs: number): CatalogueInput {
  const today = Temporal.Instant.fromEpochMilliseconds(nowEpochMs)
    .toZonedDateTimeISO('UTC')
    .toPlainDate()
  const dayHour = (days: number) => formatDateHour(today.add({ days }).toPlainDateTime())
  const paris = devices.filter((d) => d.city === 'Paris').map((d) => d.deviceId)
  const london = devices.filter((d) => d.city === 'London').map((d) => d.deviceId)
  const berlin = devices.filter((d) => d.city === 'Berlin').map((d) => d.deviceId)
  const newYork = devices.filter((d) => d.city === 'New York').map((d) => d.deviceId)
  const todayUtcMs = Date.UTC(today.year, today.month - 1, today.day)
  const dragon = (country: string, currency: string, ids: string[]) => ({
    slug: `share-your-dragon-${country}`,
    name: `Share Your Dragon (${country === 'uk' ? 'UK' : country[0]?.toUpperCase() + country.slice(1)})`,
    startDateHourLocalInclusive: dayHour(0),
    endDateHourLocalExclusive: dayHour(28),
    slotWidthMS: QUARTER_HOUR_MS,
    allowedContentGeneratorTypes: ['photo' as const, 'video' as const],
    valueCentsPerSlot: 2500,
    currency,
    branded: true,
    sponsorName: 'Dragon Studios',
    // Slots from the second week on are presale: confirmed 3 days before they play (spec §9).
    minPresaleSlotEpochMs: todayUtcMs + 7 * DAY_MS,
    devices: onDevices(ids),
    templates: allTemplateIds,
  })
  const live = (
    slug: string,
    name: string,
    currency: string,
    ids: string[],
    unavailable: string[] = [],
  ) => ({
    slug,
    name,
    startDateHourLocalInclusive: dayHour(0),
    endDateHourLocalExclusive: dayHour(LIVE_EVENT_DAYS),
    slotWidthMS: QUARTER_HOUR_MS,
    allowedContentGeneratorTypes: ['photo' as const, 'video' as const],
    valueCentsPerSlot: 4000,
    currency,
    branded: false,
    sponsorName: null,
    minPresaleSlotEpochMs: null,
    devices: onDevices(ids, unavailable),
    templates: allTemplateIds,
  })
  return {
    devices,
    templates,
    events: [
      live(LIVE_EVENT_SLUG, 'Share the Love', 'EUR', [...paris, ...berlin]),
      // spec §8: the sold_out badge (london-kings-cross is sold out everywhere)
      live(LIVE_UK_EVENT_SLUG, 'Love London', 'GBP', london),
      // spec §8: the not_available_for_event badge
      live(LIVE_US_EVENT_SLUG, 'Love New York', 'USD', newYork, ['nyc-union-square']),
      dragon('france', 'EUR', paris),
      dragon('uk', 'GBP', london),
      dragon('germany', 'EUR', berlin),
      {
        slug: 'test-wow-2022',
        name: 'Test WOW 2022',
        startDateHourLocalInclusive: '2022-11-18_00',
        endDateHourLocalExclusive: '2022-11-21_00',
        slotWidthMS: QUARTER_HOUR_MS,
        allowedContentGeneratorTypes: ['photo'],
        valueCentsPerSlot: 4000,
        currency: 'USD',
        branded: false,
        devices: onDevices(['nyc-times-square-1', 'nyc-union-square']),
        templates: ['hearts', 'hearts-wide'],
      },
      {
        slug: 'activision-test-2022',
        name: 'Activision Test 2022',
        startDateHourLocalInclusive: '2022-12-02_00',
        endDateHourLocalExclusive: '2022-12-05_00',
        slotWidthMS: QUARTER_HOUR_MS,
        allowedContentGeneratorTypes: ['photo', 'video'],
        valueCentsPerSlot: 4000,
        currency: 'USD',
        branded: true,
        sponsorName: 'Activision',
        devices: onDevices(['nyc-times-square-1', 'london-piccadilly-1']),
        templates: allTemplateIds,
      },
    ],
    promos: [
      // spec §5: percentOffTotal of the total
      { promoCode: 'LOVE10', eventSlug: LIVE_EVENT_SLUG, percentOffTotal: 10 },
      // spec §5: a fixed centsOffTotal
      { promoCode: 'LOVE5OFF', eventSlug: LIVE_EVENT_SLUG, centsOffTotal: 500 },
      // spec §5: a first shout free (the single-package price with the promo is zero), once per customer
      {
        promoCode: 'FIRSTFREE',
        eventSlug: LIVE_EVENT_SLUG,
        centsOffTotal: 4000,
        oncePerCustomer: true,
      },
      // spec §5: total floored at 0, no payment needed
      { promoCode: 'FREELOVE', eventSlug: LIVE_EVENT_SLUG, percentOffTotal: 100 },
      // spec §5: 'used once for this event' on a branded event; 'not for this event' elsewhere
      {
        promoCode: 'DRAGONFR',
        eventSlug: 'share-your-dragon-france',
        percentOffTotal: 20,
        oncePerCustomer: true,
      },
      {
        promoCode: 'DRAGONUK',
        eventSlug: 'share-your-dragon-uk',
        centsOffTotal: 1000,
        oncePerCustomer: true,
      },
      {
        promoCode: 'DRAGONDE',
        eventSlug: 'share-your-dragon-germany',
        percentOffTotal: 20,
        oncePerCustomer: true,
      },
      { promoCode: 'WOW2022', eventSlug: 'test-wow-2022', percentOffTotal: 50 },
    ],
  }
}
