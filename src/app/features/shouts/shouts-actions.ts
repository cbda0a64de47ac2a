import { spotlight } from '../../../contract/catalogue'
import { eventWindowEpochMs } from '../../../domain/event'
import { callApi } from '../../lib/api'
import { devicesStore } from '../../stores/devices'
import { eventStore } from '../../stores/event'
import { orderStore } from '../../stores/order'
import { setStatus } from '../../stores/request-status'

/**
 * spec §7 call 7: the open slots of the active device over the whole event window. Nothing
 * happens without an active device (spec §4). Selected times no longer open are dropped, and
 * their count returned.
 */
export async function fetchOpenSlots(): Promise<number> {
  const device = orderStore.activeDevice
  const event = eventStore.event
  if (!device?.deviceId || !event) return 0
  setStatus(devicesStore, 'slotsStatus', 'Running')
  try {
    const window = eventWindowEpochMs(event, device.timeZoneId)
    const answer = await callApi(spotlight.slotSearch, {
      body: {
        deviceId: device.deviceId,
        eventSlug: event.slug,
        startEpochMs: window.startEpochMs,
        endEpochMs: window.endEpochMs,
      },
    })
    devicesStore.slots = answer
    devicesStore.slotsDeviceId = device.deviceId
    devicesStore.valueCentsPerSlot = answer.valueCentsPerSlot
    setStatus(devicesStore, 'slotsStatus', 'Success')
    const open = new Set(answer.openSlots)
    const kept = orderStore.shoutTimes.filter((s) => open.has(s.slotNumber))
    const dropped = orderStore.shoutTimes.length - kept.length
    if (dropped > 0) orderStore.shoutTimes = kept
    return dropped
  } catch {
    setStatus(devicesStore, 'slotsStatus', 'Failure')
    return 0
  }
}
