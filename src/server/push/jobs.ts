import type { Job } from '../platform/scheduler.ts'
import type { PushService } from './service.ts'

// Web Push's background work, registered in the scheduler by compose.ts.

/**
 * Sends the play alerts due (service.ts sendDue), one instance at a time: every PUSH_POLL_SECONDS,
 * so an alert leaves at most that long after it became due.
 */
export function playAlertsJob(push: PushService, pollMs: number): Job {
  return {
    name: 'play-alerts',
    everyMs: pollMs,
    oneInstance: true,
    run: ({ signal }) => push.sendDue(signal),
  }
}
