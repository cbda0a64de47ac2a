import { type Locale, withLocalePrefix } from '../../domain/locale.ts'
import { type MessageValues, type ServerMessage, say } from '../platform/i18n.ts'
import { KEEPSAKE_HEIGHT, KEEPSAKE_WIDTH } from './image.ts'
import { KEEPSAKE_MESSAGES as M } from './messages.ts'

// The keepsake page as HTML: the server's own page, whole without JavaScript (none on it), small
// (its style inline, no web font), with the tags link previews read (Open Graph, Twitter's card).
// Everything written in it comes from the catalogue or the order's summary and is escaped here.

export type KeepsakeView = {
  locale: Locale
  /** The billboard's place: "Place de l'Opéra, facing Boulevard Haussmann, Paris". */
  place: string
  eventName: string
  /** "Played 4 times on Friday, November 27, first at 6:01 PM", or when it plays. */
  airingLine: string | null
  /** Absolute: link previews need them so. */
  pageUrl: string
  imageUrl: string
  imagePath: string
  /** The billboard's QR entry: /{event}?device={id}, in the page's language. */
  makeYourOwnHref: string
}

const OG_LOCALES: Record<Locale, string> = { en: 'en_US', fr: 'fr_FR', de: 'de_DE' }

export function escapeHtml(text: string): string {
  return text
    .replaceAll('&', '&amp;')
    .replaceAll('<', '&lt;')
    .replaceAll('>', '&gt;')
    .replaceAll('"', '&quot;')
    .replaceAll("'", '&#39;')
}

const STYLE = `
*{box-sizing:border-box}
html{color-scheme:dark}
body{margin:0;font:16px/1.5 system-ui,-apple-system,"Segoe UI",Roboto,sans-serif;background:#14121f;color:#f4f2fa}
main{max-width:760px;margin:0 auto;padding:20px 16px 40px}
h1{font-size:1.5rem;line-height:1.25;margin:0 0 16px}
img{display:block;width:100%;height:auto;border-radius:12px;background:#25223a}
.facts{margin:16px 0 24px;padding:0;list-style:none}
.facts li{margin:4px 0}
.place{font-weight:600;font-size:1.1rem}
.cta{display:inline-block;padding:14px 24px;border-radius:999px;background:#c2185b;color:#fff;font-weight:700;text-decoration:none}
.cta:focus-visible{outline:3px solid #fff;outline-offset:3px}
`.replaceAll('\n', '')

function head(locale: Locale, title: string, extra: string): string {
  return (
    `<!doctype html><html lang="${locale}"><head><meta charset="utf-8">` +
    '<meta name="viewport" content="width=device-width, initial-scale=1">' +
    // a page of one shopper's message: shared by link, never listed by search engines
    '<meta name="robots" content="noindex">' +
    `<title>${escapeHtml(title)}</title>` +
    '<link rel="icon" href="/favicon.svg" type="image/svg+xml">' +
    `<meta name="theme-color" content="#14121f">${extra}<style>${STYLE}</style></head>`
  )
}

export function keepsakePage(view: KeepsakeView): string {
  const t = (message: ServerMessage, values?: MessageValues) => say(view.locale, message, values)
  const e = escapeHtml
  const title = t(M.title, { place: view.place })
  const description = t(M.description, { event: view.eventName, place: view.place })
  const alt = t(M.alt, { place: view.place })
  const preview = [
    ['og:type', 'website'],
    ['og:site_name', 'Shouts'],
    ['og:title', title],
    ['og:description', description],
    ['og:url', view.pageUrl],
    ['og:locale', OG_LOCALES[view.locale]],
    ['og:image', view.imageUrl],
    ['og:image:type', 'image/jpeg'],
    ['og:image:width', String(KEEPSAKE_WIDTH)],
    ['og:image:height', String(KEEPSAKE_HEIGHT)],
    ['og:image:alt', alt],
  ]
    .map(([property, content]) => `<meta property="${property}" content="${e(content ?? '')}">`)
    .join('')
  const card = [
    ['twitter:card', 'summary_large_image'],
    ['twitter:title', title],
    ['twitter:description', description],
    ['twitter:image', view.imageUrl],
    ['twitter:image:alt', alt],
  ]
    .map(([name, content]) => `<meta name="${name}" content="${e(content ?? '')}">`)
    .join('')
  return (
    head(
      view.locale,
      title,
      `<meta name="description" content="${e(description)}">` +
        `<link rel="canonical" href="${e(view.pageUrl)}">${preview}${card}`,
    ) +
    `<body><main><h1>${e(t(M.heading))}</h1>` +
    `<img src="${e(view.imagePath)}" width="${KEEPSAKE_WIDTH}" height="${KEEPSAKE_HEIGHT}" ` +
    `alt="${e(alt)}" fetchpriority="high">` +
    `<ul class="facts"><li class="place">${e(view.place)}</li>` +
    `<li>${e(t(M.event, { event: view.eventName }))}</li>` +
    (view.airingLine ? `<li>${e(view.airingLine)}</li>` : '') +
    `</ul><a class="cta" href="${e(view.makeYourOwnHref)}">${e(t(M.makeYourOwn))}</a>` +
    '</main></body></html>'
  )
}

/** The page of a share that is gone (revoked, forgotten, never made): 404, in the visitor's language. */
export function gonePage(locale: Locale): string {
  const e = escapeHtml
  const home = withLocalePrefix('/', locale)
  const gone = say(locale, M.gone)
  return (
    head(locale, gone, '') +
    `<body><main><h1>${e(gone)}</h1><p>${e(say(locale, M.goneText))}</p>` +
    `<a class="cta" href="${home}">${e(say(locale, M.home))}</a></main></body></html>`
  )
}
