import type { Job } from '../platform/scheduler.ts'
import type { MailService } from './service.ts'

// The mail module's background work, registered in the scheduler by compose.ts.

/** Plans the mails the orders' states owe (service.ts planDue): one instance at a time. */
export function mailPlannerJob(mail: MailService, pollMs: number): Job {
  return { name: 'mail-planner', everyMs: pollMs, oneInstance: true, run: () => mail.planDue() }
}

/**
 * Sends the mails due (service.ts sendDue) on every instance, each mail claimed under a lease; at
 * shutdown the claimed mails are handed back and the SMTP connection closed.
 */
export function mailSenderJob(mail: MailService, pollMs: number): Job {
  return {
    name: 'mail-sender',
    everyMs: pollMs,
    start: () => mail.takeOverLeases(),
    run: () => mail.sendDue(),
    stop: () => mail.close(),
  }
}
