import type { OrderSummary, ShoutEvent } from '../../contract/index.ts'
import type { NoticeMailKind } from '../../contract/mail.ts'
import { isLocale, type Locale, withLocalePrefix } from '../../domain/locale.ts'
import type { SlotMakeGood } from '../../domain/make-good.ts'
import { formatMoney } from '../../domain/money.ts'
import type { ProblemData } from '../../domain/problems.ts'
import { cityStateLabel, shoutTimesLabel } from '../../domain/shout-times.ts'
import { slotEndEpochMs, slotStartEpochMs } from '../../domain/slots.ts'
import { eventNotLongOver } from '../catalogue/reads.ts'
import type { CatalogueReads } from '../catalogue/service.ts'
import { makeGoodMailCandidates } from '../make-good/reads.ts'
import { orderContact, stateMailCandidates, timedMailCandidates } from '../order/mail-reads.ts'
import { problemIn } from '../platform/catalogs.ts'
import type { Database, Queryable } from '../platform/db/client.ts'
import { say } from '../platform/i18n.ts'
import type { LeaseSettings } from '../platform/lease.ts'
import type { Logger } from '../platform/log.ts'
import { err, ok, type Result } from '../platform/result.ts'
import { writeCalendar } from './ics.ts'
import { makeGoodLines } from './make-good-lines.ts'
import { MAIL_MESSAGES } from './messages.ts'
import { type NoticeView, renderNotice } from './notice.ts'
import {
  type Attachment,
  type BodyHidden,
  expireMailLeases,
  forgetOrderMail,
  insertMail,
  insertNotice,
  listOutbox,
  type MailToSend,
  mailed,
  type NewMail,
  type OutboxRow,
  outboxMail,
  releaseMailLeases,
} from './repo.ts'
import { createSender } from './sender.ts'
import { type MailKind, type MailView, renderMail } from './templates.ts'
import type { MailTransport } from './transport.ts'

/** What a mail reads of an order's summary (never its failures: a cancel's reason comes apart). */
type Summary = Omit<OrderSummary, 'errors' | 'codes' | 'params'>

// E-mail. Mails are made from the orders' states, never on another module's call: a planner (the
// `mail-planner` job, jobs.ts: every MAIL_POLL_SECONDS, one instance at a time) finds the orders owed
// a mail and inserts it into the outbox, rendered, with ON CONFLICT DO NOTHING on (order, kind):
// however many instances plan at once, each mail exists once. A sender (the `mail-sender` job, on
// every instance, sender.ts) claims due mails under a lease (SKIP LOCKED), records each `sending`,
// sends it, marks it sent; a failure is kept as the row's error and retried with back-off. Without SMTP_URL (no transport) the planner stores the
// mails for /ops/outbox and nothing is sent.

export type MailSettings = {
  /** MAIL_FROM */
  from: string
  /** REMINDER_LEAD_MINUTES, in ms. */
  reminderLeadMs: number
  /** MAIL_RETRY_SECONDS, in ms: the first back-off, doubled on each later failure. */
  retryBaseMs: number
  /** MAIL_MAX_ATTEMPTS: after this many failed attempts a mail is marked failed. */
  maxAttempts: number
}

export type MailDeps = {
  database: Database
  log: Logger
  now: () => number
  lease: LeaseSettings
  /** null: no SMTP_URL, mails are stored only. */
  transport: MailTransport | null
  settings: MailSettings
  /** The shop's public origin (PUBLIC_BASE_URL, else where the server listens) for links and images. */
  origin: () => string
  /** The order as the confirmation page shows it (order/service.ts). */
  summary: (eventSlug: string, guid: string) => Promise<Result<Summary, { code: string }>>
  catalogue: CatalogueReads
  /** A new one-time "Forget my data" link for a mail of the order (order/erasure.ts; null: none). */
  erasureLink?: (guid: string) => Promise<string | null>
  /** Take over every lease at start (embedded database: one process, so no other owner lives). */
  takeOverAtStart?: boolean
  /**
   * A local install without SMTP (APP_ENV=local): a mail's one-time link is readable in the
   * console's outbox and printed once in the log, so a sign-up completes with no mail server. Never
   * in prod, where such a body is only ever in the mail itself.
   */
  showOneTimeLinks?: boolean
}

/** A file sent with a mail (an invoice's PDF with its receipt). */
export type MailAttachment = Attachment

export type MailError = { code: 'mail_not_found' }

/** An order owed a mail of a kind (order/mail-reads.ts finds them). */
type MailCandidate = {
  guid: string
  eventSlug: string
  kind: MailKind
  /** cancelled: the reason given (the state history's, else the order's first error). */
  reason?: ProblemData | null
  /** cancelled: what the refund gave back (0 when nothing was owed). */
  refundedCents?: number
}

/** Mails planned a pass, at most, of each kind. */
const BATCH = 20
/** After the last play, the billboard's proofs have this long to arrive before "it played" is made. */
const PLAYED_GRACE_MS = 0

export type MailService = ReturnType<typeof createMailService>

export function createMailService(deps: MailDeps) {
  const { database: db, log, settings } = deps
  const origin = () => deps.origin().replace(/\/+$/, '')

  /** The confirmation page of the order, in its language (spec §2: fr and de carry a prefix). */
  const orderUrl = (summary: Summary) =>
    `${origin()}${withLocalePrefix(`/${encodeURIComponent(summary.eventSlug)}/order/confirmation`, summary.locale)}?order=${encodeURIComponent(summary.guid)}`

  /** The shop's host name, for Message-IDs and calendar UIDs (RFC 5322 3.6.4, RFC 5545 3.8.4.7). */
  const mailHost = () => {
    try {
      return new URL(origin()).hostname || 'shouts.invalid'
    } catch {
      return 'shouts.invalid'
    }
  }
  // One per (order, kind), the same on every instance and attempt: a duplicate is recognisable.
  const messageId = (guid: string, kind: MailKind) => `<${guid}.${kind}@${mailHost()}>`

  function playTimes(summary: Summary, locale: Locale): string[] {
    const format = new Intl.DateTimeFormat({ en: 'en-US', fr: 'fr-FR', de: 'de-DE' }[locale], {
      dateStyle: 'medium',
      timeStyle: 'medium',
      timeZone: summary.device.timeZoneId,
    })
    return (summary.plays ?? []).map((play) => format.format(play.startedAtEpochMs))
  }

  function calendarOf(summary: Summary, event: ShoutEvent, locale: Locale): Attachment {
    const host = mailHost()
    const ics = writeCalendar({
      productId: '-//Shouts//Mail//EN',
      stampEpochMs: deps.now(),
      events: summary.slots.map((slot) => ({
        uid: `${summary.guid}-${slot.slotNumber}@${host}`,
        startEpochMs: slot.startEpochMs,
        endEpochMs: slot.endEpochMs,
        summary: say(locale, MAIL_MESSAGES.calendarSummary, { event: event.name }),
        description: `${say(locale, MAIL_MESSAGES.code)}: ${summary.confirmationCode}`,
        location: `${summary.device.location}, ${cityStateLabel(summary.device, locale)}`,
        url: orderUrl(summary),
      })),
    })
    return {
      filename: 'shout.ics',
      contentType: 'text/calendar; charset=utf-8; method=PUBLISH',
      contentBase64: Buffer.from(ics, 'utf8').toString('base64'),
    }
  }

  /** The mail of this kind for the order, rendered for the outbox (null: the order or its contact is gone). */
  async function render(
    candidate: MailCandidate,
    extra: {
      reason?: ProblemData | null
      refundedCents?: number
      minutesToFirstPlay?: number
      makeGood?: { playsDue: number; playsProven: number; slots: SlotMakeGood[] }
    } = {},
  ): Promise<NewMail | null> {
    const [found, contact, event] = await Promise.all([
      deps.summary(candidate.eventSlug, candidate.guid),
      orderContact(db, candidate.guid),
      deps.catalogue.event(candidate.eventSlug),
    ])
    if (!found.ok || !contact || !event) return null
    const summary = found.value
    const locale: Locale = isLocale(summary.locale) ? summary.locale : 'en'
    const withCalendar = candidate.kind === 'confirmed' || candidate.kind === 'approved'
    // the erasure's mail: its photo is being deleted, and nothing is left to forget
    const erased = candidate.kind === 'erased'
    const view: MailView = {
      kind: candidate.kind,
      locale,
      firstName: contact.firstName,
      confirmationCode: summary.confirmationCode,
      eventName: event.name,
      billboard: `${summary.device.location}, ${cityStateLabel(summary.device, locale)}`,
      timeZoneId: summary.device.timeZoneId,
      times: shoutTimesLabel(
        event,
        summary.device.timeZoneId,
        summary.slots.map((s) => s.slotNumber),
        locale,
      ),
      total: formatMoney(summary.totalCents, { currency: summary.currency, locale }),
      // The photo, or the clip's first frame (order summary's contentImageUrl; docs/mail.md).
      imageUrl:
        summary.contentImageUrl && !erased
          ? new URL(summary.contentImageUrl, `${origin()}/`).toString()
          : null,
      orderUrl: orderUrl(summary),
      plays: playTimes(summary, locale),
      calendar: withCalendar,
      forgetUrl: deps.erasureLink && !erased ? await deps.erasureLink(candidate.guid) : null,
      // the reason in the shopper's language, by its code (the operator's own words as typed)
      reason: extra.reason ? problemIn(locale, extra.reason) : null,
      refunded:
        extra.refundedCents === undefined
          ? null
          : formatMoney(extra.refundedCents, { currency: summary.currency, locale }),
      ...(extra.makeGood ? { makeGood: makeGoodLines(summary, locale, extra.makeGood) } : {}),
      ...(extra.minutesToFirstPlay === undefined
        ? {}
        : { minutesToFirstPlay: extra.minutesToFirstPlay }),
    }
    return {
      id: crypto.randomUUID(),
      orderGuid: candidate.guid,
      kind: candidate.kind,
      locale,
      to: contact.email,
      ...renderMail(view),
      attachments: withCalendar ? [calendarOf(summary, event, locale)] : [],
      messageId: messageId(candidate.guid, candidate.kind),
      status: deps.transport ? 'queued' : 'stored',
    }
  }

  /** Renders the mail of this kind for the order and adds it to the outbox unless it is there. */
  async function plan(
    candidate: MailCandidate,
    extra: Parameters<typeof render>[1] = {},
  ): Promise<boolean> {
    const mail = await render(candidate, extra)
    if (!mail) return false
    const added = await insertMail(db, mail)
    if (added) log.info('mail planned', { orderGuid: candidate.guid, kind: candidate.kind })
    return added
  }

  /** One pass of the planner: every mail now due, each at most once. */
  async function planDue(): Promise<number> {
    let added = 0
    for (const candidate of await stateMailCandidates(db, mailed, BATCH * 5)) {
      const extra =
        candidate.kind === 'cancelled'
          ? { reason: candidate.reason ?? null, refundedCents: candidate.refundedCents ?? 0 }
          : candidate.kind === 'payment_failed'
            ? { reason: candidate.reason ?? null }
            : {}
      if (await plan(candidate, extra)) added++
    }
    // a make-good that missed plays, once its refund is done (make-good/service.ts)
    for (const made of await makeGoodMailCandidates(db, mailed, BATCH * 5)) {
      const candidate = { guid: made.guid, eventSlug: made.eventSlug, kind: 'make_good' as const }
      const extra = { refundedCents: Number(made.refundCents), makeGood: made }
      if (await plan(candidate, extra)) added++
    }
    const now = deps.now()
    for (const order of await timedMailCandidates(db, mailed, eventNotLongOver, BATCH * 25)) {
      const [event, device] = await Promise.all([
        deps.catalogue.event(order.eventSlug),
        deps.catalogue.eventDevice(order.eventSlug, order.deviceId),
      ])
      if (!event || !device || order.slotNumbers.length === 0) continue
      const first = Math.min(...order.slotNumbers)
      const last = Math.max(...order.slotNumbers)
      const firstStart = slotStartEpochMs(event, device.timeZoneId, first)
      const lastEnd = slotEndEpochMs(event, device.timeZoneId, last)
      const candidate = { guid: order.guid, eventSlug: order.eventSlug }
      if (now >= lastEnd + PLAYED_GRACE_MS) {
        if (await plan({ ...candidate, kind: 'played' })) added++
      } else if (
        !order.hasReminder &&
        now < firstStart &&
        now >= firstStart - settings.reminderLeadMs
      ) {
        const minutesToFirstPlay = Math.max(1, Math.round((firstStart - now) / 60_000))
        if (await plan({ ...candidate, kind: 'reminder' }, { minutesToFirstPlay })) added++
      }
    }
    return added
  }

  const sender = createSender({
    db,
    log,
    lease: deps.lease,
    from: settings.from,
    retryBaseMs: settings.retryBaseMs,
    maxAttempts: settings.maxAttempts,
  })
  /** One pass of the sender (sender.ts): every due mail this instance could claim. */
  const sendDue = () => sender.sendDue(deps.transport)

  let running: Promise<void> | null = null

  /** A planner pass then a sender pass; a pass already running is joined, not doubled. */
  function tick(): Promise<void> {
    running ??= (async () => {
      try {
        await planDue()
        await sendDue()
      } catch (error) {
        log.error('mail pass failed', { error })
      } finally {
        running = null
      }
    })()
    return running
  }

  /**
   * A mail that belongs to no order (an advertiser's), laid out by notice.ts and added to the outbox
   * under its sender's key, once: the same key again adds nothing. The sender jobs send it.
   */
  async function queueNotice(notice: {
    key: string
    kind: NoticeMailKind
    to: string
    view: NoticeView
    /** The body holds a one-time link: never shown in the console, blanked once sent. */
    sensitive: boolean
    attachments?: readonly Attachment[]
  }): Promise<boolean> {
    const rendered = renderNotice(notice.view)
    const added = await insertNotice(db, {
      id: crypto.randomUUID(),
      key: notice.key,
      kind: notice.kind,
      locale: notice.view.locale,
      to: notice.to,
      ...rendered,
      messageId: `<${notice.key}@${mailHost()}>`,
      status: deps.transport ? 'queued' : 'stored',
      sensitive: notice.sensitive,
      ...(notice.attachments ? { attachments: notice.attachments } : {}),
    })
    if (added) log.info('mail queued', { kind: notice.kind })
    if (added && notice.sensitive && !deps.transport && deps.showOneTimeLinks) {
      // once, when the mail is made: no mail server will carry it (APP_ENV=local, no SMTP_URL)
      log.info('a one-time link, kept in the outbox (no SMTP, APP_ENV=local)', {
        kind: notice.kind,
        oneTimeLink: notice.view.button?.url,
      })
    }
    return added
  }

  return {
    queueNotice,
    /**
     * The mail confirming that the shopper had the order's personal data forgotten, rendered now,
     * while its address and language are still known; the erasure adds it to the outbox in its own
     * transaction (order/erasure.ts), once per order (its (order, kind) is unique).
     */
    async erasureMail(
      eventSlug: string,
      guid: string,
    ): Promise<((tx: Queryable) => Promise<void>) | null> {
      // without SMTP it would never leave, and stored it would keep the address just forgotten
      if (!deps.transport) return null
      const mail = await render({ guid, eventSlug, kind: 'erased' })
      if (!mail) return null
      return async (tx) => {
        if (await insertMail(tx, mail))
          log.info('mail planned', { orderGuid: guid, kind: 'erased' })
      }
    },
    /** Forgets what an order's mails say (its personal data's lifetime ended, order/lifetime.ts). */
    forgetOrder: (guid: string) => forgetOrderMail(db, guid),
    /** The shop's public origin, for the links a sender puts in its mails. */
    origin,
    /**
     * A mail a crash left claimed is sent again once its lease ends; on the embedded database at
     * once, since its owner is surely gone (the `mail-sender` job's start, jobs.ts).
     */
    async takeOverLeases(): Promise<void> {
      if (deps.takeOverAtStart) await expireMailLeases(db)
    },
    tick,
    planDue,
    sendDue,
    list: (limit = 200): Promise<OutboxRow[]> => listOutbox(db, limit),
    async mail(
      id: string,
    ): Promise<Result<MailToSend & { bodyHidden: BodyHidden | null }, MailError>> {
      const found = await outboxMail(db, id, Boolean(deps.showOneTimeLinks && !deps.transport))
      return found ? ok(found) : err({ code: 'mail_not_found' })
    },
    /** Hands back the mails this instance holds and closes the SMTP connection (at shutdown). */
    async close() {
      await running
      await sender.recordPending().catch(() => undefined)
      await releaseMailLeases(db, deps.lease.owner).catch(() => undefined)
      deps.transport?.close()
    },
  }
}
