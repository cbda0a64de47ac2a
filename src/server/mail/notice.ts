import type { Locale } from '../../domain/locale.ts'
import { COLOURS, escapeHtml, FONT, type RenderedMail } from './templates.ts'

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
  const cell = `font-family:${FONT};color:${COLOURS.ink};font-size:16px;line-height:1.5`
  const rowHtml = rows
    .map(
      (row) => `<tr>
<th scope="row" align="left" valign="top" style="${cell};font-weight:600;padding:8px 12px 8px 0;border-top:1px solid ${COLOURS.line};white-space:nowrap">${e(row.label)}</th>
<td valign="top" style="${cell};padding:8px 0;border-top:1px solid ${COLOURS.line}">${e(row.value)}</td>
</tr>`,
    )
    .join('\n')
  const button = view.button
    ? `<tr><td style="padding:8px 24px 16px"><a href="${e(view.button.url)}" style="display:inline-block;background:${COLOURS.orange};color:${COLOURS.white};font-family:${FONT};font-size:16px;font-weight:700;text-decoration:none;padding:12px 24px;border-radius:999px">${e(view.button.label)}</a></td></tr>`
    : ''
  const html = `<!DOCTYPE html>
<html lang="${view.locale}">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<meta name="color-scheme" content="light">
<title>${e(view.heading)}</title>
</head>
<body style="margin:0;padding:0;background:${COLOURS.bg}">
<table role="presentation" width="100%" cellpadding="0" cellspacing="0" border="0" style="background:${COLOURS.bg}">
<tr><td align="center" style="padding:24px 12px">
<table role="presentation" width="600" cellpadding="0" cellspacing="0" border="0" style="width:100%;max-width:600px;background:${COLOURS.white};border-radius:22px;border:1px solid ${COLOURS.line}">
<tr><td style="padding:20px 24px;border-bottom:4px solid ${COLOURS.pink};font-family:${FONT};font-size:22px;font-weight:800;color:${COLOURS.orange};letter-spacing:0.5px">Shouts</td></tr>
<tr><td style="padding:24px 24px 8px"><h1 style="margin:0;font-family:${FONT};font-size:26px;line-height:1.25;color:${COLOURS.ink}">${e(view.heading)}</h1></td></tr>
<tr><td style="padding:8px 24px 16px;${cell}"><p style="margin:0 0 12px">${e(view.greeting)}</p>${view.paragraphs.map((p) => `<p style="margin:0 0 12px">${e(p)}</p>`).join('')}</td></tr>
${rows.length ? `<tr><td style="padding:0 24px 8px"><table role="presentation" width="100%" cellpadding="0" cellspacing="0" border="0">\n${rowHtml}\n</table></td></tr>` : ''}
${button}
${notes.length ? `<tr><td style="padding:0 24px 16px;font-family:${FONT};font-size:14px;line-height:1.5;color:${COLOURS.grey}">${notes.map(e).join('<br>')}</td></tr>` : ''}
<tr><td style="padding:16px 24px;background:${COLOURS.orangeSoft};border-radius:0 0 22px 22px;font-family:${FONT};font-size:13px;color:${COLOURS.grey}">${e(view.footer)}</td></tr>
</table>
</td></tr>
</table>
</body>
</html>
`
  return { subject: view.subject, text, html }
}
