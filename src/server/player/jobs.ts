import type { Job } from '../platform/scheduler.ts'
import type { OutageAlerts } from './outages.ts'

// The player module's background work, registered in the scheduler by compose.ts.

/**
 * Every minute, one instance at a time: the admins' offline and back-online alerts (outages.ts
 * check; each outage opened and closed once, each mail keyed, so another instance sends nothing more).
 */
export function billboardOutagesJob(alerts: OutageAlerts): Job {
  return {
    name: 'billboard-outages',
    everyMs: 60_000,
    oneInstance: true,
    run: () => alerts.check(),
  }
}
