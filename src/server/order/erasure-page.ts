import { type Locale, withLocalePrefix } from '../../domain/locale.ts'
import { sayAll } from '../platform/i18n.ts'
import { ERASURE_MESSAGES } from './erasure-messages.ts'

// The "Forget my data" page: the server's own, whole without JavaScript (none on it), in the order's
// language. Reading it changes nothing; its one button posts the form back (erasure.ts).

export type ErasurePageView =
  | { state: 'ask'; locale: Locale; confirmationCode: string; action: string }
  | { state: 'wait'; locale: Locale; fromEpochMs: number; timeZoneId: string }
  | { state: 'busy' | 'forgotten'; locale: Locale }

const e = (text: string) =>
  text
    .replaceAll('&', '&amp;')
    .replaceAll('<', '&lt;')
    .replaceAll('>', '&gt;')
    .replaceAll('"', '&quot;')
    .replaceAll("'", '&#39;')

const STYLE =
  'body{margin:0;font:16px/1.5 system-ui,-apple-system,"Segoe UI",Roboto,sans-serif;background:#fffaf5;color:#1d1d1f}' +
  'main{max-width:640px;margin:0 auto;padding:24px 16px 40px}h1{font-size:1.5rem;margin:0 0 16px}' +
  '.cta{display:inline-block;padding:12px 24px;border:0;border-radius:999px;background:#c2410c;color:#fff;font:inherit;font-weight:700;text-decoration:none;cursor:pointer}' +
  '.cta:focus-visible{outline:3px solid #c2185b;outline-offset:3px}'

function page(locale: Locale, title: string, body: string): string {
  return (
    `<!doctype html><html lang="${locale}"><head><meta charset="utf-8">` +
    '<meta name="viewport" content="width=device-width, initial-scale=1">' +
    '<meta name="robots" content="noindex"><meta name="referrer" content="no-referrer">' +
    `<title>${e(title)}</title><link rel="icon" href="/favicon.svg" type="image/svg+xml">` +
    `<style>${STYLE}</style></head><body><main><h1>${e(title)}</h1>${body}</main></body></html>`
  )
}

const DATE_LOCALES: Record<Locale, string> = { en: 'en-US', fr: 'fr-FR', de: 'de-DE' }

export function erasurePage(view: ErasurePageView): string {
  const t = sayAll(view.locale, ERASURE_MESSAGES)
  const home = `<p><a href="${withLocalePrefix('/', view.locale)}">${e(t.home())}</a></p>`
  switch (view.state) {
    case 'ask':
      return page(
        view.locale,
        t.title(),
        `<p>${e(t.ask({ code: view.confirmationCode }))}</p><p>${e(t.what())}</p><p>${e(t.kept())}</p>` +
          `<form method="post" action="${e(view.action)}"><button class="cta" type="submit">${e(t.confirm())}</button></form>`,
      )
    case 'wait': {
      const when = new Intl.DateTimeFormat(DATE_LOCALES[view.locale], {
        dateStyle: 'long',
        timeStyle: 'short',
        timeZone: view.timeZoneId,
      }).format(view.fromEpochMs)
      return page(view.locale, t.title(), `<p>${e(t.wait({ when }))}</p>${home}`)
    }
    case 'busy':
      return page(view.locale, t.title(), `<p>${e(t.busy())}</p>`)
    case 'forgotten':
      return page(view.locale, t.title(), `<p>${e(t.forgotten())}</p>${home}`)
  }
}

/** An unknown or expired link: 404, in the visitor's language. */
export function erasureGonePage(locale: Locale): string {
  const t = sayAll(locale, ERASURE_MESSAGES)
  return page(
    locale,
    t.gone(),
    `<p>${e(t.goneText())}</p><p><a href="${withLocalePrefix('/', locale)}">${e(t.home())}</a></p>`,
  )
}
