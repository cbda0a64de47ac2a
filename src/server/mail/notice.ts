import type { Locale } from '../../domain/locale.ts'
import {
  COLOURS,
  escapeHtml,
  FONT,
  MAIL_CELL,
  mailButton,
  mailFactRow,
  mailPage,
  type RenderedMail,
} from './templates.ts'

// A mail that belongs to no order (an advertiser's verification link, a password reset, a campaign's
// news), in the shop's look: a heading, paragraphs, facts as rows, one button, a footer. Its sender
// writes the words in the reader's language; this only lays them out, as HTML and as plain text.

export type NoticeView = {
  locale: Locale
  subject: string
  heading: string
  greeting: string
  paragraphs: readonly string[]
  rows?: readonly { label: string; value: string }[]
  button?: { label: string; url: string }
  /** Lines under the button, smaller (a link's lifetime, "ignore this mail if…"). */
  notes?: readonly string[]
  footer: string
}

export function renderNotice(view: NoticeView): RenderedMail {
  const rows = view.rows ?? []
  const notes = view.notes ?? []
  const text = [
    view.greeting,
    '',
    ...view.paragraphs.flatMap((p) => [p, '']),
    ...rows.map((row) => `${row.label}: ${row.value}`),
    ...(rows.length ? [''] : []),
    ...(view.button ? [`${view.button.label}: ${view.button.url}`, ''] : []),
    ...notes,
    ...(notes.length ? [''] : []),
    '-- ',
    view.footer,
    '',
  ].join('\n')

  const e = escapeHtml
  const rowHtml = rows.map((row) => mailFactRow(row.label, e(row.value))).join('\n')
  const button = view.button ? mailButton(view.button.url, view.button.label, '8px 24px 16px') : ''
  const html = mailPage({
    locale: view.locale,
    heading: view.heading,
    footer: view.footer,
    body: `<tr><td style="padding:8px 24px 16px;${MAIL_CELL}"><p style="margin:0 0 12px">${e(view.greeting)}</p>${view.paragraphs.map((p) => `<p style="margin:0 0 12px">${e(p)}</p>`).join('')}</td></tr>
${rows.length ? `<tr><td style="padding:0 24px 8px"><table role="presentation" width="100%" cellpadding="0" cellspacing="0" border="0">\n${rowHtml}\n</table></td></tr>` : ''}
${button}
${notes.length ? `<tr><td style="padding:0 24px 16px;font-family:${FONT};font-size:14px;line-height:1.5;color:${COLOURS.grey}">${notes.map(e).join('<br>')}</td></tr>` : ''}`,
  })
  return { subject: view.subject, text, html }
}
