import type { Hono } from 'hono'
import {
  acceptedLanguages,
  isLocale,
  type Locale,
  preferredLocale,
  withLocalePrefix,
} from '../../domain/locale.ts'
import { sayAll } from '../platform/i18n.ts'
import { PRIVACY_MESSAGES } from './privacy-messages.ts'

// The shop's privacy page, /s/privacy/{en|fr|de} (/s/privacy: the visitor's language): the server's
// own, no script, saying in plain words what is kept, for how long (the shop's own settings), and how
// to have it forgotten sooner (docs/privacy.md).

const e = (text: string) =>
  text
    .replaceAll('&', '&amp;')
    .replaceAll('<', '&lt;')
    .replaceAll('>', '&gt;')
    .replaceAll('"', '&quot;')
    .replaceAll("'", '&#39;')

const STYLE =
  'body{margin:0;font:16px/1.5 system-ui,-apple-system,"Segoe UI",Roboto,sans-serif;background:#fffaf5;color:#1d1d1f}' +
  'main{max-width:720px;margin:0 auto;padding:24px 16px 40px}h1{font-size:1.6rem;margin:0 0 16px}h2{font-size:1.2rem;margin:24px 0 8px}a{color:#c2410c}'

export function privacyPage(
  locale: Locale,
  lifetime: { orderDays: number; unorderedHours: number },
): string {
  const t = sayAll(locale, PRIVACY_MESSAGES)
  const sections = t.sections
    .map(
      (s) =>
        `<h2>${e(s.heading())}</h2><ul>${s.lines.map((line) => `<li>${e(line(lifetime))}</li>`).join('')}</ul>`,
    )
    .join('')
  const languages = (['en', 'fr', 'de'] as const)
    .map((l) => `<a href="/s/privacy/${l}" hreflang="${l}" lang="${l}">${l.toUpperCase()}</a>`)
    .join(' · ')
  return (
    `<!doctype html><html lang="${locale}"><head><meta charset="utf-8">` +
    '<meta name="viewport" content="width=device-width, initial-scale=1">' +
    `<title>${e(t.title())} · Shouts</title><link rel="icon" href="/favicon.svg" type="image/svg+xml">` +
    `<style>${STYLE}</style></head><body><main><p>${languages}</p><h1>${e(t.title())}</h1>` +
    `<p>${e(t.intro())}</p>${sections}` +
    `<p><a href="${withLocalePrefix('/', locale)}">${e(t.home())}</a></p></main></body></html>`
  )
}

export function privacyPages(
  // biome-ignore lint/suspicious/noExplicitAny: the app's variables are its own; these routes read none
  app: Hono<any>,
  lifetime: { orderDays: number; unorderedHours: number },
) {
  app.get('/s/privacy', (c) => {
    const locale = preferredLocale(acceptedLanguages(c.req.header('accept-language')))
    return c.redirect(`/s/privacy/${locale}`, 302)
  })
  app.get('/s/privacy/:locale', (c) => {
    const locale = c.req.param('locale')
    if (!isLocale(locale)) return c.notFound()
    c.header('Cache-Control', 'public, max-age=3600')
    return c.html(privacyPage(locale, lifetime))
  })
}
