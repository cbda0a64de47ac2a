// The outbox's sender (the `mail-sender` job, on every instance; docs/mail.md "At most once at the SMTP
// boundary"). A claimed mail is first recorded `sending`, then handed to the mail server, then
// recorded `sent` (or back to `queued` with its error). Recording before sending is what keeps a send
// from being made twice when the database takes no write (a full disk, a PostgreSQL restarting):
// - the `sending` record fails: nothing is sent; the mail is taken again when its lease ends;
// - the outcome's record fails after the send: the outcome is kept here and written first thing on
//   the next pass, once the database takes writes again; the row stays `sending`, which no claim
//   takes until long after its lease ended (SENDING_GRACE_LEASES), so nothing sends it meanwhile;
// - the instance dies between the two: the row stays `sending`, and once that grace is over another
//   instance sends it again with the same Message-ID (a crash "one send long", as before).
import type { ProblemData } from '../../domain/problems.ts'
import type { Queryable } from '../platform/db/client.ts'
import { heartbeat, type LeaseSettings } from '../platform/lease.ts'
import type { Logger } from '../platform/log.ts'
import {
  claimDueMails,
  type MailToSend,
  markAttemptFailed,
  markSending,
  markSent,
  renewMailLease,
} from './repo.ts'
import type { MailTransport } from './transport.ts'

/** The longest back-off between two attempts. */
const MAX_RETRY_MS = 3_600_000
const BATCH = 20
/**
 * Leases a mail left `sending` waits after its lease ended before another instance sends it again:
 * its own instance, alive but unable to write (the database full or away), writes the outcome
 * first once it can.
 */
export const SENDING_GRACE_LEASES = 20

type Outcome = { sent: true } | { sent: false; error: ProblemData; retryMs: number | null }

export type SenderDeps = {
  db: Queryable
  log: Logger
  lease: LeaseSettings
  from: string
  /** MAIL_RETRY_SECONDS, in ms: the first back-off, doubled on each later failure. */
  retryBaseMs: number
  /** MAIL_MAX_ATTEMPTS: after this many failed attempts a mail is marked failed. */
  maxAttempts: number
}

export function createSender(deps: SenderDeps) {
  const { db, log, lease } = deps
  /** Sends made whose outcome the database has not taken yet, by mail id. */
  const unrecorded = new Map<string, Outcome>()

  const backoffMs = (attempts: number) =>
    Math.min(MAX_RETRY_MS, deps.retryBaseMs * 2 ** Math.max(0, attempts - 1))

  const record = async (id: string, outcome: Outcome) => {
    if (outcome.sent) await markSent(db, id, lease.owner)
    else await markAttemptFailed(db, id, lease.owner, outcome.error, outcome.retryMs)
  }

  /** Writes the outcomes the database did not take before; throws while it still takes none. */
  const recordPending = async () => {
    for (const [id, outcome] of unrecorded) {
      await record(id, outcome)
      unrecorded.delete(id)
      log.info('mail outcome recorded late', { mailId: id, sent: outcome.sent })
    }
  }

  async function sendOne(mail: MailToSend, transport: MailTransport): Promise<void> {
    // Not ours any more (the lease was lost meanwhile): another instance has it.
    if (!(await markSending(db, mail.id, lease.owner))) return
    const stop = heartbeat(
      lease.leaseMs,
      () => renewMailLease(db, mail.id, lease),
      () => log.warn('mail lease lost while sending', { mailId: mail.id }),
      (error) => log.warn('mail lease renewal failed', { mailId: mail.id, error }),
    )
    let outcome: Outcome
    try {
      await transport.send({
        from: deps.from,
        to: mail.to,
        subject: mail.subject,
        text: mail.text,
        html: mail.html,
        attachments: mail.attachments,
        messageId: mail.messageId,
      })
      outcome = { sent: true }
      log.info('mail sent', { mailId: mail.id, kind: mail.kind })
    } catch (error) {
      const message = (error instanceof Error ? error.message : String(error)).slice(0, 1000)
      const retryMs = mail.attempts >= deps.maxAttempts ? null : backoffMs(mail.attempts)
      log.warn('mail not sent', {
        mailId: mail.id,
        kind: mail.kind,
        attempts: mail.attempts,
        error: message,
        retryInMs: retryMs,
      })
      outcome = {
        sent: false,
        error: { code: 'mail_send_failed', params: { reason: message } },
        retryMs,
      }
    } finally {
      stop()
    }
    try {
      await record(mail.id, outcome)
    } catch (error) {
      unrecorded.set(mail.id, outcome)
      log.error('mail outcome not recorded; kept to be written, never sent again meanwhile', {
        mailId: mail.id,
        sent: outcome.sent,
        error,
      })
      throw error
    }
  }

  /** One pass: the outcomes kept from before, then every due mail this instance could claim. */
  async function sendDue(transport: MailTransport | null): Promise<number> {
    if (!transport) return 0
    await recordPending()
    const graceMs = SENDING_GRACE_LEASES * lease.leaseMs
    let sent = 0
    for (;;) {
      const batch = await claimDueMails(db, lease, BATCH, graceMs)
      if (batch.length === 0) return sent
      for (const mail of batch) {
        await sendOne(mail, transport)
        sent++
      }
    }
  }

  return { sendDue, recordPending }
}
