import type { OrderMailKind as MailKind } from '../../contract/mail.ts'
import type { Locale } from '../../domain/locale.ts'
import { type MessageValues, type ServerMessage, say } from '../platform/i18n.ts'
import { MAIL_MESSAGES as M } from './messages.ts'

export type { MailKind }

// Each mail as HTML and plain text from one view. The HTML has the shop's look
// (src/app/styles/app.css: its orange, pink, smoke and ink colours, its system font) with every style
// inline and a table layout, the form mail clients (Outlook, Gmail) render; images carry alt texts.

export type MailView = {
  kind: MailKind
  locale: Locale
  firstName: string
  confirmationCode: string
  eventName: string
  /** The billboard's place: 'Place de l'Opéra, Paris'. */
  billboard: string
  timeZoneId: string
  /** Slot labels in the billboard's zone by the domain's rules (shoutTimesLabel). */
  times: readonly string[]
  total: string
  /** An absolute image address (a photo, or a video's first frame), or null. */
  imageUrl: string | null
  orderUrl: string
  /** cancelled: the reason the operator gave, and the amount refunded. */
  reason?: string | null
  refunded?: string | null
  /** reminder: minutes from the planned send to the first play. */
  minutesToFirstPlay?: number
  /** played: each proof of play's time, in the billboard's zone. */
  plays?: readonly string[]
  /** make_good: "7 of 8 plays", and each slot that missed plays ("9:15 PM: 1 of 4 plays"). */
  makeGood?: { played: string; missed: readonly string[] }
  /** Whether an .ics is attached (confirmed, approved). */
  calendar?: boolean
  /** The footer's one-time "Forget my data" link (order/erasure.ts), when the data is still kept. */
  forgetUrl?: string | null
}

export type RenderedMail = { subject: string; text: string; html: string }

export const COLOURS = {
  orange: '#c2410c',
  orangeSoft: '#fff1e6',
  pink: '#c2185b',
  ink: '#1d1d1f',
  grey: '#5f5f5f',
  line: '#e3ddd7',
  bg: '#fffaf5',
  white: '#ffffff',
}
export const FONT =
  'system-ui, -apple-system, "Segoe UI", Roboto, "Noto Sans", Helvetica, Arial, sans-serif'

export function escapeHtml(value: string): string {
  return value
    .replace(/&/g, '&amp;')
    .replace(/</g, '&lt;')
    .replace(/>/g, '&gt;')
    .replace(/"/g, '&quot;')
    .replace(/'/g, '&#39;')
}

/** Body text in a mail's cells: the font, the ink, the size and the line height. */
export const MAIL_CELL = `font-family:${FONT};color:${COLOURS.ink};font-size:16px;line-height:1.5`

/** One fact of a mail as a table row: its label, and its value already escaped. */
export function mailFactRow(label: string, valueHtml: string): string {
  return `<tr>
<th scope="row" align="left" valign="top" style="${MAIL_CELL};font-weight:600;padding:8px 12px 8px 0;border-top:1px solid ${COLOURS.line};white-space:nowrap">${escapeHtml(label)}</th>
<td valign="top" style="${MAIL_CELL};padding:8px 0;border-top:1px solid ${COLOURS.line}">${valueHtml}</td>
</tr>`
}

/** The mail's one call to action, a pill-shaped link, in a row with the given padding. */
export function mailButton(url: string, label: string, padding: string): string {
  return `<tr><td style="padding:${padding}"><a href="${escapeHtml(url)}" style="display:inline-block;background:${COLOURS.orange};color:${COLOURS.white};font-family:${FONT};font-size:16px;font-weight:700;text-decoration:none;padding:12px 24px;border-radius:999px">${escapeHtml(label)}</a></td></tr>`
}

/**
 * Every mail's page, in the shop's look: the Shouts band, the heading, the mail's own rows (`body`,
 * HTML table rows) and the footer, in one 600-pixel card that mail clients without CSS still lay out.
 */
export function mailPage(page: {
  locale: Locale
  heading: string
  body: string
  footer: string
  /** A link under the footer's line (the order's "Forget my data"). */
  footerLink?: { url: string; label: string } | null
}): string {
  const e = escapeHtml
  return `<!DOCTYPE html>
<html lang="${page.locale}">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<meta name="color-scheme" content="light">
<title>${e(page.heading)}</title>
</head>
<body style="margin:0;padding:0;background:${COLOURS.bg}">
<table role="presentation" width="100%" cellpadding="0" cellspacing="0" border="0" style="background:${COLOURS.bg}">
<tr><td align="center" style="padding:24px 12px">
<table role="presentation" width="600" cellpadding="0" cellspacing="0" border="0" style="width:100%;max-width:600px;background:${COLOURS.white};border-radius:22px;border:1px solid ${COLOURS.line}">
<tr><td style="padding:20px 24px;border-bottom:4px solid ${COLOURS.pink};font-family:${FONT};font-size:22px;font-weight:800;color:${COLOURS.orange};letter-spacing:0.5px">Shouts</td></tr>
<tr><td style="padding:24px 24px 8px"><h1 style="margin:0;font-family:${FONT};font-size:26px;line-height:1.25;color:${COLOURS.ink}">${e(page.heading)}</h1></td></tr>
${page.body}
<tr><td style="padding:16px 24px;background:${COLOURS.orangeSoft};border-radius:0 0 22px 22px;font-family:${FONT};font-size:13px;color:${COLOURS.grey}">${e(page.footer)}${page.footerLink ? `<br><a href="${e(page.footerLink.url)}" style="color:${COLOURS.grey}">${e(page.footerLink.label)}</a>` : ''}</td></tr>
</table>
</td></tr>
</table>
</body>
</html>
`
}

type Row = { label: string; lines: readonly string[] }

function rowsOf(view: MailView): Row[] {
  const t = (message: ServerMessage) => say(view.locale, message)
  const rows: Row[] = [
    { label: t(M.code), lines: [view.confirmationCode] },
    { label: t(M.billboard), lines: [view.billboard] },
  ]
  if (view.kind === 'played') {
    rows.push({ label: t(M.plays), lines: view.plays?.length ? view.plays : [t(M.noPlays)] })
  } else if (view.kind === 'make_good' && view.makeGood) {
    rows.push({ label: t(M.playedCount), lines: [view.makeGood.played] })
    rows.push({ label: t(M.missed), lines: view.makeGood.missed })
    if (view.refunded) rows.push({ label: t(M.refunded), lines: [view.refunded] })
  } else {
    rows.push({ label: t(M.times), lines: view.times })
  }
  if (view.kind === 'payment_failed' && view.reason) {
    rows.push({ label: t(M.reason), lines: [view.reason] })
  }
  if (view.kind === 'cancelled') {
    if (view.reason) rows.push({ label: t(M.reason), lines: [view.reason] })
    if (view.refunded) rows.push({ label: t(M.refunded), lines: [view.refunded] })
  } else if (view.kind !== 'reminder' && view.kind !== 'played' && view.kind !== 'make_good') {
    rows.push({ label: t(M.total), lines: [view.total] })
  }
  return rows
}

export function renderMail(view: MailView): RenderedMail {
  const t = (message: ServerMessage, values?: MessageValues) => say(view.locale, message, values)
  const kind = M.kinds[view.kind]
  const greeting = t(M.greeting, { name: view.firstName })
  const intro = t(kind.intro, { event: view.eventName })
  const seeOrder = t(M.seeOrder)
  const footer = t(M.footer)
  const forgetData = t(M.forgetData)
  const rows = rowsOf(view)
  const notes = [t(M.timeZone, { zone: view.timeZoneId })]
  if (view.kind === 'reminder' && view.minutesToFirstPlay !== undefined) {
    notes.unshift(t(M.firstPlay, { minutes: view.minutesToFirstPlay }))
  }
  if (view.calendar) notes.push(t(M.calendarNote))
  // the erasure's mail says what stays of the order (its rows above) and why
  if (view.kind === 'erased') notes.unshift(t(M.kept))

  const text = [
    greeting,
    '',
    intro,
    '',
    ...rows.flatMap((row) =>
      row.lines.length === 1
        ? [`${row.label}: ${row.lines[0]}`]
        : [`${row.label}:`, ...row.lines.map((l) => `  - ${l}`)],
    ),
    '',
    ...notes,
    '',
    `${seeOrder}: ${view.orderUrl}`,
    '',
    '-- ',
    footer,
    ...(view.forgetUrl ? [`${forgetData}: ${view.forgetUrl}`] : []),
    '',
  ].join('\n')

  const e = escapeHtml
  const rowHtml = rows
    .map((row) => mailFactRow(row.label, row.lines.map(e).join('<br>')))
    .join('\n')
  const image = view.imageUrl
    ? `<tr><td style="padding:0 24px 16px"><img src="${e(view.imageUrl)}" alt="${e(t(M.contentAlt, { event: view.eventName }))}" width="552" style="display:block;width:100%;max-width:552px;height:auto;border:0;border-radius:14px"></td></tr>`
    : ''
  const html = mailPage({
    locale: view.locale,
    heading: t(kind.heading),
    footer,
    footerLink: view.forgetUrl ? { url: view.forgetUrl, label: forgetData } : null,
    body: `<tr><td style="padding:8px 24px 16px;${MAIL_CELL}"><p style="margin:0 0 12px">${e(greeting)}</p><p style="margin:0">${e(intro)}</p></td></tr>
${image}
<tr><td style="padding:0 24px 8px"><table role="presentation" width="100%" cellpadding="0" cellspacing="0" border="0">
${rowHtml}
</table></td></tr>
<tr><td style="padding:8px 24px 16px;font-family:${FONT};font-size:14px;line-height:1.5;color:${COLOURS.grey}">${notes.map(e).join('<br>')}</td></tr>
${mailButton(view.orderUrl, seeOrder, '0 24px 28px')}`,
  })
  return { subject: t(kind.subject, { code: view.confirmationCode }), text, html }
}
