import { existsSync, readFileSync, statSync } from 'node:fs'
import { join } from 'node:path'
import { isShopPage, SHOP_PAGES, type ShopPage, shopPagePath } from '../../contract/pages.ts'
import { LOCALES, type Locale, withLocalePrefix } from '../../domain/locale.ts'
import { frenchTypography } from '../../locale/typography.ts'
import { say } from '../platform/i18n.ts'
import { type Operator, PAGE_DEFAULTS } from './defaults.ts'
import { markdownHtml, titleOf } from './markdown.ts'
import { PAGE_MESSAGES } from './messages.ts'

// The shop's own pages: About, FAQs, Contact, Press, the terms, the privacy and the content policies
// (src/contract/pages.ts), each in en, fr and de. The operator writes them as Markdown files in the
// folder SHOP_PAGES_DIR names, {locale}/{page}.md (docs/pages.md); a page without its file reads the
// default text (defaults-*.ts), which names the operator from the configuration. Made into HTML safely
// (markdown.ts), French with its typography, served without script.

/** At most this much of an operator's file is read: a page, not a book. */
const MAX_PAGE_BYTES = 256 * 1024

export type PageSettings = { operator: Operator; dir: string | null }

/**
 * Who runs the shop and where their texts are, from the configuration: OPERATOR_NAME, else the name
 * of MAIL_FROM ("Shouts <shop@example.com>"); OPERATOR_EMAIL, else MAIL_FROM's address.
 */
export function pageSettings(env: {
  OPERATOR_NAME?: string | undefined
  OPERATOR_EMAIL?: string | undefined
  MAIL_FROM: string
  SHOP_PAGES_DIR?: string | undefined
}): PageSettings {
  const from = /^\s*([^<>]*?)\s*<([^<>]+)>\s*$/.exec(env.MAIL_FROM)
  const fromName = from?.[1] || null
  const fromAddress = from?.[2] ?? env.MAIL_FROM.trim()
  return {
    operator: {
      operator: env.OPERATOR_NAME ?? fromName ?? 'Shouts',
      email: env.OPERATOR_EMAIL ?? fromAddress,
    },
    dir: env.SHOP_PAGES_DIR ?? null,
  }
}

export type ShopPageText = { title: string; html: string; fromOperator: boolean }

/** The operator's text of a page in a language, when their folder holds one. */
function operatorText(dir: string | null, page: ShopPage, locale: Locale): string | null {
  if (!dir) return null
  const file = join(dir, locale, `${page}.md`)
  if (!existsSync(file)) return null
  const stat = statSync(file)
  if (!stat.isFile() || stat.size > MAX_PAGE_BYTES) return null
  return readFileSync(file, 'utf8')
}

/** A page's title and HTML in a language: the operator's text, else the default. */
export function shopPageText(settings: PageSettings, page: ShopPage, locale: Locale): ShopPageText {
  const own = operatorText(settings.dir, page, locale)
  const markdown = own ?? PAGE_DEFAULTS[locale][page](settings.operator)
  const typeset = locale === 'fr' ? frenchTypography(markdown) : markdown
  const { title, body } = titleOf(typeset)
  return { title: title ?? page, html: markdownHtml(body), fromOperator: own !== null }
}

const e = (text: string) =>
  text
    .replaceAll('&', '&amp;')
    .replaceAll('<', '&lt;')
    .replaceAll('>', '&gt;')
    .replaceAll('"', '&quot;')

// the privacy page's look (meta/privacy-page.ts): the shop's colours, readable on a phone
const STYLE =
  'body{margin:0;font:16px/1.5 system-ui,-apple-system,"Segoe UI",Roboto,sans-serif;background:#fffaf5;color:#1d1d1f}' +
  'main{max-width:720px;margin:0 auto;padding:24px 16px 40px}h1{font-size:1.6rem;margin:0 0 16px}' +
  'h2{font-size:1.2rem;margin:24px 0 8px}h3{font-size:1.05rem;margin:16px 0 4px}a{color:#c2410c}' +
  'nav{display:flex;flex-wrap:wrap;gap:4px 12px;margin:0 0 16px;font-size:.9rem}li{margin:4px 0}'

/** A shop page as a whole HTML document, with the other languages and the way back to the shop. */
export function shopPageHtml(settings: PageSettings, page: ShopPage, locale: Locale): string {
  const text = shopPageText(settings, page, locale)
  const languages = LOCALES.map(
    (l) => `<a href="${shopPagePath(page, l)}" hreflang="${l}" lang="${l}">${l.toUpperCase()}</a>`,
  ).join(' · ')
  return (
    `<!doctype html><html lang="${locale}"><head><meta charset="utf-8">` +
    '<meta name="viewport" content="width=device-width, initial-scale=1">' +
    `<title>${e(text.title)} · ${e(settings.operator.operator)}</title>` +
    '<link rel="icon" href="/favicon.svg" type="image/svg+xml">' +
    `<style>${STYLE}</style></head><body><main><nav aria-label="Languages">${languages}</nav>` +
    `<h1>${e(text.title)}</h1>${text.html}` +
    `<p><a href="${withLocalePrefix('/', locale)}">${e(say(locale, PAGE_MESSAGES.home))}</a></p></main></body></html>`
  )
}

export { isShopPage, SHOP_PAGES }
