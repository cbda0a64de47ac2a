import { columnMap } from '../platform/db/columns.ts'
import type { Catalogue } from './format.ts'

// The catalogue's tables as the catalogue file names their fields (docs/catalogue-format.md): one
// line per field, from which the import's upserts, the console's preview and the shop's reads
// write their SQL. A new billboard field is a line in DEVICES (docs/architecture.md says what
// else it takes); the shop's answers select the fields the contract's DeviceSchema names.

export type FileDevice = Catalogue['devices'][number]
export type FileTemplate = Catalogue['templates'][number]
export type FileEvent = Catalogue['events'][number]
export type FilePromo = Catalogue['promos'][number]

/** An event's own columns: its billboards and templates are rows of event_devices, event_templates. */
export type EventColumns = Omit<FileEvent, 'devices' | 'templates'>

export const DEVICES = columnMap<FileDevice>('devices', {
  deviceId: 'device_id',
  location: 'location',
  city: 'city',
  stateAbbr: 'state_abbr',
  country: 'country',
  timeZoneId: 'time_zone_id',
  coordinates: { lat: 'lat', lng: 'lng' },
  viewingAreaCoordinates: { column: 'viewing_area_coordinates', json: true },
  trafficDirection: 'traffic_direction',
  screens: 'screens',
  imageUrl: 'image_url',
  screenCorners: { column: 'screen_corners', json: true },
  streetViewUrl: 'street_view_url',
  contentWidth: 'content_width',
  contentHeight: 'content_height',
  soldOut: 'sold_out',
  impressionsPerPlay: { column: 'impressions_per_play', cast: 'int' },
  adCpmCents: { column: 'ad_cpm_cents', cast: 'int' },
  adCurrency: { column: 'ad_currency', cast: 'text' },
})

export const TEMPLATES = columnMap<FileTemplate>('templates', {
  id: 'id',
  name: 'name',
  names: { column: 'names', json: true },
  types: { column: 'types', json: true },
  mode: 'mode',
  widthPx: 'width_px',
  heightPx: 'height_px',
  previewImageUrl: 'preview_image_url',
  examplePreviewVideoUrl: 'example_preview_video_url',
  videoMaxLengthSeconds: { column: 'video_max_length_seconds', cast: 'int' },
  html: 'html',
})

export const EVENTS = columnMap<EventColumns>('events', {
  slug: 'slug',
  name: 'name',
  startDateHourLocalInclusive: 'start_date_hour_local_inclusive',
  endDateHourLocalExclusive: 'end_date_hour_local_exclusive',
  slotWidthMS: 'slot_width_ms',
  allowedContentGeneratorTypes: { column: 'allowed_content_generator_types', json: true },
  valueCentsPerSlot: 'value_cents_per_slot',
  currency: 'currency',
  branded: 'branded',
  sponsorName: 'sponsor_name',
  minPresaleSlotEpochMs: { column: 'min_presale_slot_epoch_ms', cast: 'bigint' },
  playsPerSlot: 'plays_per_slot',
  secondsPerShout: 'seconds_per_shout',
  adSharePercent: { column: 'ad_share_percent', cast: 'int' },
})

export const PROMOS = columnMap<FilePromo>('promos', {
  promoCode: 'promo_code',
  eventSlug: 'event_slug',
  centsOffTotal: { column: 'cents_off_total', cast: 'int' },
  percentOffTotal: { column: 'percent_off_total', cast: 'int' },
  oncePerCustomer: 'once_per_customer',
})
