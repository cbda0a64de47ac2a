import { describe, expect, it } from 'vitest'
import { LOCALES } from '../../domain/locale.ts'
import { say } from '../platform/i18n.ts'
import { MAIL_MESSAGES } from './messages.ts'
import { type MailView, renderMail } from './templates.ts'

const view = (over: Partial<MailView> = {}): MailView => ({
  kind: 'cancelled',
  locale: 'en',
  firstName: 'Ana <script>',
  confirmationCode: '3f2b9c1d',
  eventName: 'Share the Love',
  billboard: "Place de l'Opéra, Paris, France",
  timeZoneId: 'Europe/Paris',
  times: ['May 07 @ 6:00 - 6:15pm'],
  total: '$ 80.00',
  imageUrl: 'https://shop.example/api/v1/content/files/a.png?x=1&y=2',
  orderUrl: 'https://shop.example/share-the-love/order/confirmation?order=g',
  reason: 'Shows a "brand" & a logo',
  refunded: '$ 80.00',
  ...over,
})

describe('mail templates', () => {
  it('escapes what the shopper and the operator typed in the HTML, and keeps it as is in the text', () => {
    const mail = renderMail(view())
    expect(mail.html).toContain('Hello Ana &lt;script&gt;,')
    expect(mail.html).not.toContain('<script>')
    expect(mail.html).toContain('Shows a &quot;brand&quot; &amp; a logo')
    expect(mail.html).toContain('src="https://shop.example/api/v1/content/files/a.png?x=1&amp;y=2"')
    expect(mail.html).toContain('alt="Your shout for Share the Love"')
    expect(mail.text).toContain('Reason: Shows a "brand" & a logo')
    expect(mail.text).toContain('Refunded: $ 80.00')
  })

  it('has every kind in every language, each subject naming the code', () => {
    for (const locale of LOCALES) {
      for (const kind of Object.keys(MAIL_MESSAGES.kinds) as MailView['kind'][]) {
        const mail = renderMail(view({ locale, kind }))
        expect(mail.subject).toContain('3f2b9c1d')
        expect(mail.html).toContain(`<html lang="${locale}">`)
        expect(mail.text).toContain(
          say(locale, MAIL_MESSAGES.kinds[kind].intro, { event: 'Share the Love' }),
        )
      }
    }
  })
})
