import { proxy, ref, snapshot } from 'valtio'
import {
  type Device,
  FIRST_DEVICES_PAGE,
  type Pagination,
  type SlotSearchResponse,
  spotlight,
} from '../../contract/spotlight'
import { DEFAULT_TEMPLATE_MODE } from '../../domain/content'
import { TTL } from '../../domain/storage'
import { callApi } from '../lib/api'
import { persist } from './persist'
import { type RequestStatus, setStatus } from './request-status'

// spec §3 "Device list state" and the slot search answer of the active device.
type DevicesState = {
  devices: Device[]
  mapDevice: Device | null
  supportedGeneratorModes: string[]
  /** spec §3: devices at the same coordinates as another one */
  potentialExcludeDevices: string[]
  pagination: Pagination | null
  fetchStatus: RequestStatus
  slots: SlotSearchResponse | null
  slotsDeviceId: string | null
  valueCentsPerSlot: number | null
  slotsStatus: RequestStatus
  loadedForEvent: string | null
}

const initial = (): DevicesState => ({
  devices: [],
  mapDevice: null,
  supportedGeneratorModes: [DEFAULT_TEMPLATE_MODE],
  potentialExcludeDevices: [],
  pagination: null,
  fetchStatus: null,
  slots: null,
  slotsDeviceId: null,
  valueCentsPerSlot: null,
  slotsStatus: null,
  loadedForEvent: null,
})

export const devicesStore = proxy<DevicesState>(initial())

/** spec §9: page size 200, offset 0, sorted by id ascending. */
// one request per event at a time: the start-up prefetch and the page's own call share it
const inFlight = new Map<string, Promise<void>>()

export function fetchDevices(eventSlug: string): Promise<void> {
  if (devicesStore.loadedForEvent === eventSlug && devicesStore.devices.length > 0) {
    return Promise.resolve()
  }
  const running = inFlight.get(eventSlug)
  if (running) return running
  const request = loadDevices(eventSlug).finally(() => inFlight.delete(eventSlug))
  inFlight.set(eventSlug, request)
  return request
}

const requestDevices = (eventSlug: string) =>
  callApi(spotlight.devices, { params: { slug: eventSlug }, query: FIRST_DEVICES_PAGE })

/**
 * The location step's billboards (its route loader). In the browser through the store, null when
 * they could not be loaded (the page says so). On the server straight from the API: it never writes
 * a store, and a failure is an error page, not cached.
 */
export async function devicesForEvent(eventSlug: string): Promise<readonly Device[] | null> {
  if (import.meta.env.SSR) return (await requestDevices(eventSlug)).devices
  await fetchDevices(eventSlug)
  return devicesStore.loadedForEvent === eventSlug
    ? (snapshot(devicesStore).devices as readonly Device[])
    : null
}

/** The billboards the server rendered the page with, taken over by the store once the page is live
 * (the later steps read them there). */
export function adoptDevices(
  eventSlug: string,
  devices: readonly Device[],
  pagination: Pagination | null = null,
): void {
  if (devicesStore.loadedForEvent === eventSlug && devicesStore.devices.length > 0) return
  devicesStore.devices = ref([...devices]) as Device[]
  devicesStore.pagination = pagination
  devicesStore.loadedForEvent = eventSlug
  const seen = new Map<string, string>()
  const excluded: string[] = []
  for (const device of devices) {
    const at = `${device.coordinates.lat},${device.coordinates.lng}`
    if (seen.has(at)) excluded.push(device.deviceId)
    else seen.set(at, device.deviceId)
  }
  devicesStore.potentialExcludeDevices = excluded
  setStatus(devicesStore, 'fetchStatus', 'Success')
}

async function loadDevices(eventSlug: string): Promise<void> {
  setStatus(devicesStore, 'fetchStatus', 'Running')
  try {
    const page = await requestDevices(eventSlug)
    adoptDevices(eventSlug, page.devices, page.pagination)
  } catch {
    // the store keeps the status, never an error's English (nothing would read it but to match it)
    setStatus(devicesStore, 'fetchStatus', 'Failure')
  }
}

// spec §9: generator modes and value per slot live 1 h in the browser.
persist(devicesStore, {
  key: 'devices',
  version: 1,
  ttlMs: TTL.valuePerSlot,
  schema: async () => (await import('./saved-state')).DevicesSchema,
  pick: () => ({
    supportedGeneratorModes: [...devicesStore.supportedGeneratorModes],
    valueCentsPerSlot: devicesStore.valueCentsPerSlot,
  }),
  apply: (data) => {
    devicesStore.supportedGeneratorModes = data.supportedGeneratorModes
    devicesStore.valueCentsPerSlot = data.valueCentsPerSlot
  },
})
