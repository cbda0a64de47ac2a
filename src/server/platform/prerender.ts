import { existsSync, readFileSync, statSync } from 'node:fs'
import { join } from 'node:path'
import { pathOf } from '../../contract/endpoint.ts'
import type { Device } from '../../contract/index.ts'
import { FIRST_DEVICES_PAGE, spotlight } from '../../contract/spotlight.ts'
import { cityStateLabel } from '../../domain/index.ts'
import {
  acceptedLanguages,
  eventSlugFromPath,
  LOCALES,
  type Locale,
  localeFromCookies,
  preferredLocale,
  splitLocalePath,
} from '../../domain/locale.ts'
import { readPoEntries } from '../../locale/po-reader.ts'

// Lighthouse (issue 4): the shell index.html is empty until ~150 KB of JavaScript has downloaded and run,
// so a phone on venue data saw nothing for 2-3 s. The server fills in, per request:
// - the page language (<html lang>) and the translated title;
// - modulepreload links for the locale's catalog and the route's code chunks, which the app would
//   otherwise discover only after its entry chunk has run (one network round trip each);
// - for the home page (/, /fr, /de), its first screen (top bar and hero) inside #root, in the same
//   markup and classes as src/app/features/home/home-page.tsx renders, so it paints from the inlined
//   CSS at once and React's first render (src/app/start.tsx) replaces it with an identical layout.
// The texts come from the app's .po catalogs (msgid = the English source), so they stay translated in
// one place; tests/e2e/first-paint.spec.ts checks they match what React renders, without layout shift.

const HERO_TITLE = 'Share the Gift of a Billboard'
const HERO_LEAD =
  'Put your photo and a few loving words on a giant digital billboard, at the time you choose. Pick a billboard, a design and your moments — we do the rest.'
const LANGUAGE_LABEL = 'Language: {0}'
const LANGUAGE_NAMES: Record<Locale, string> = { en: 'English', fr: 'Français', de: 'Deutsch' }
// src/app/lib/steps.ts STEP_LABELS, in order
const STEP_LABELS = [
  'Select Location',
  'Select Template',
  'Customize',
  'Select Shouts',
  'Billing Info',
  'Order Review',
]

// src/app/ui/flags.tsx, as React serialises it
const US_STRIPES = [1, 3, 5, 7, 9, 11]
  .map((row) => `<rect y="${(row * 16) / 13}" width="24" height="${16 / 13}" fill="#fff"></rect>`)
  .join('')
const FLAGS: Record<Locale, string> = {
  en: `<rect width="24" height="16" fill="#b22234"></rect>${US_STRIPES}<rect width="10" height="${(7 * 16) / 13}" fill="#3c3b6e"></rect>`,
  fr: '<rect width="8" height="16" fill="#002395"></rect><rect x="8" width="8" height="16" fill="#fff"></rect><rect x="16" width="8" height="16" fill="#ed2939"></rect>',
  de: '<rect width="24" height="5.34" fill="#000"></rect><rect y="5.33" width="24" height="5.34" fill="#dd0000"></rect><rect y="10.66" width="24" height="5.34" fill="#ffce00"></rect>',
}

/** The route chunks of each page the app code-splits (TanStack autoCodeSplitting keys in Vite's manifest). */
const ROUTE = (file: string) => `src/app/routes/${file}.tsx?tsr-split=component`
const STEP_ROUTES: Record<string, string> = {
  'design/location': '_default/$eventslug/_steps/design/location',
  'design/template': '_default/$eventslug/_steps/design/template',
  'design/customize': '_default/$eventslug/_steps/design/customize',
  'order/select-shouts': '_default/$eventslug/_steps/order/select-shouts',
  'order/review': '_default/$eventslug/_steps/order/review',
  'order/checkout': '_default/$eventslug/_steps/order/checkout',
  'order/confirmation': '_default/$eventslug/_steps/order/confirmation',
}

export type PageRequest = { path: string; cookie?: string; acceptLanguage?: string }

/** What the server knows of the catalogue: an event's display name, or null when there is no such event. */
export type PrerenderDeps = {
  eventName?: (slug: string) => Promise<string | null>
  /** the event's billboards as GET /api/v1/spotlight/events/{slug}/devices lists them */
  devices?: (slug: string) => Promise<Device[] | null>
}

function escapeHtml(text: string): string {
  return text
    .replace(/&/g, '&amp;')
    .replace(/</g, '&lt;')
    .replace(/>/g, '&gt;')
    .replace(/"/g, '&quot;')
}

/** msgid -> msgstr of a Lingui .po catalog; an untranslated message shows its English msgid. */
function parsePo(text: string): Map<string, string> {
  return new Map(readPoEntries(text).map((e) => [e.id, e.str || e.id]))
}

/** The page's language: its prefix, else (only at the root, as the app does) cookie, then browser. */
export function pageLocale(req: PageRequest): { locale: Locale; rest: string } {
  const { locale, path } = splitLocalePath(req.path)
  if (req.path !== '/') return { locale, rest: path }
  // spec §2/§9: the i18n_redirected cookie, else the first of the browser's languages the shop speaks
  return {
    locale: localeFromCookies(req.cookie) ?? preferredLocale(acceptedLanguages(req.acceptLanguage)),
    rest: '/',
  }
}

type Manifest = Record<string, { file: string; imports?: string[]; isEntry?: boolean }>

type Sources = {
  key: string
  catalogs: Record<Locale, Map<string, string>>
  manifest: Manifest | null
}

/**
 * Reads the catalogs (src/locale/locales) and the build's manifest (dist/.vite), again when
 * either changes on disk, and returns the function that fills in a page's index.html.
 */
export function createPrerender(distDir: string, localesDir: string, deps: PrerenderDeps = {}) {
  let sources: Sources | null = null
  const load = (): Sources => {
    const manifestFile = join(distDir, '.vite', 'manifest.json')
    const files = [...LOCALES.map((l) => join(localesDir, l, 'messages.po')), manifestFile]
    const key = files.map((f) => (existsSync(f) ? statSync(f).mtimeMs : 0)).join('|')
    if (sources?.key === key) return sources
    const catalogs = Object.fromEntries(
      LOCALES.map((l) => {
        const file = join(localesDir, l, 'messages.po')
        return [l, existsSync(file) ? parsePo(readFileSync(file, 'utf8')) : new Map()]
      }),
    ) as Record<Locale, Map<string, string>>
    const manifest = existsSync(manifestFile)
      ? (JSON.parse(readFileSync(manifestFile, 'utf8')) as Manifest)
      : null
    sources = { key, catalogs, manifest }
    return sources
  }

  return async (indexHtml: string, req: PageRequest): Promise<string> => {
    const { catalogs, manifest } = load()
    const { locale, rest } = pageLocale(req)
    const t = (msgid: string) => catalogs[locale].get(msgid) || msgid

    let html = indexHtml
      .replace(/<html lang="[^"]*">/, `<html lang="${locale}">`)
      .replace(/<title>[^<]*<\/title>/, `<title>${escapeHtml(t(HERO_TITLE))}</title>`)

    const location = /^\/([^/]+)\/design\/location$/.exec(rest)?.[1]
    const eventName =
      location && deps.eventName ? await deps.eventName(location).catch(() => null) : null
    const firstScreen =
      rest === '/'
        ? homeFirstScreen(locale, t)
        : location && eventName !== null
          ? locationFirstScreen(
              locale,
              t,
              eventName,
              location,
              (await deps.devices?.(location).catch(() => null)) ?? [],
            )
          : null
    if (firstScreen)
      html = html.replace('<div id="root"></div>', `<div id="root">${firstScreen}</div>`)

    // With the first screen in the page, the app's code is no longer what the first paint waits for:
    // it is fetched at low priority; without one it is (the browser's default, high).
    const priority = firstScreen ? ' fetchpriority="low"' : ''
    const links = [
      ...(manifest ? preloadChunks(manifest, locale, rest) : []).map(
        (file) => `<link rel="modulepreload" crossorigin href="/${file}"${priority}>`,
      ),
      // the data the page's largest paint waits for, fetched with the code rather than after it; the
      // app's own fetch (same URL, same-origin credentials) takes the preloaded response
      ...preloadData(rest).map(
        (href) => `<link rel="preload" as="fetch" crossorigin href="${escapeHtml(href)}">`,
      ),
    ]
    if (links.length > 0) html = html.replace('</head>', `${links.join('')}</head>`)
    return html
  }
}

/** The locale's catalog and the route's chunks with their imports, minus what index.html already loads. */
function preloadChunks(manifest: Manifest, locale: Locale, rest: string): string[] {
  const entry = Object.values(manifest).find((c) => c.isEntry)
  const loaded = new Set<string>()
  const walk = (key: string, into: Set<string>) => {
    const chunk = manifest[key]
    if (!chunk || into.has(chunk.file)) return
    into.add(chunk.file)
    for (const dep of chunk.imports ?? []) walk(dep, into)
  }
  if (entry) {
    const entryKey = Object.keys(manifest).find((k) => manifest[k] === entry)
    if (entryKey) walk(entryKey, loaded)
  }
  // the app itself (./main.tsx imports it once the first screen is painted), its catalog, its route
  const keys = ['src/app/start.tsx', `src/locale/locales/${locale}/messages.po`]
  if (rest === '/') keys.push(ROUTE('index'))
  else {
    const step = /^\/[^/]+\/(design\/[a-z-]+|order\/[a-z-]+)$/.exec(rest)?.[1]
    const stepRoute = step ? STEP_ROUTES[step] : undefined
    if (stepRoute) {
      keys.push(
        ROUTE('_default'),
        ROUTE('_default/$eventslug'),
        ROUTE('_default/$eventslug/_steps'),
        ROUTE(stepRoute),
      )
    }
  }
  const wanted = new Set<string>()
  for (const key of keys) walk(key, wanted)
  return [...wanted].filter((file) => !loaded.has(file))
}

/** API answers a page always asks for on a fresh load, fetched with the code rather than after it: the
 * home page's live events (its loader), an event page's event (the $eventslug route's beforeLoad; the
 * event is not persisted) and the location step's billboards (src/app/start.tsx; not persisted either). */
function preloadData(rest: string): string[] {
  if (rest === '/') return [pathOf(spotlight.liveEvents)]
  // the pages that name no event (event-not-found, issue 14's billboard player) preload none
  const slug = eventSlugFromPath(rest)
  if (!slug) return []
  const urls = [pathOf(spotlight.event, { slug })]
  if (rest === `/${slug}/design/location`)
    urls.push(pathOf(spotlight.devices, { slug }, FIRST_DEVICES_PAGE))
  return urls
}

function homeFirstScreen(locale: Locale, t: (msgid: string) => string): string {
  return (
    '<div class="pwa-banners"></div><main class="home" id="main"><div class="home__top">' +
    '<span class="home__logo"><span class="logo__mark" aria-hidden="true">◆</span> Shouts</span>' +
    `${languageButton(locale, t)}</div>` +
    `<section class="home__hero"><h1 class="home__title">${escapeHtml(t(HERO_TITLE))}</h1>` +
    `<p class="home__lead">${escapeHtml(t(HERO_LEAD))}</p></section></main>`
  )
}

function languageButton(locale: Locale, t: (msgid: string) => string): string {
  const languageLabel = t(LANGUAGE_LABEL).replace('{0}', LANGUAGE_NAMES[locale])
  // disabled until the app takes over: it has no handler before that
  return (
    '<div class="lang"><button type="button" class="lang__current" aria-haspopup="true" aria-expanded="false" disabled>' +
    `<svg width="24" height="16" viewBox="0 0 24 16" aria-hidden="true" class="flag">${FLAGS[locale]}</svg>` +
    `<span class="lang__code" aria-hidden="true">${locale.toUpperCase()}</span>` +
    `<span class="visually-hidden">${escapeHtml(languageLabel)}</span></button></div>`
  )
}

/**
 * The location step as src/app/features/shell/default-layout.tsx, header.tsx, ui/step-indicator.tsx and
 * features/location/location-page.tsx render it before the billboards arrive: header, steps, title,
 * the event's name, the map and list placeholders and the action bar. The header's menu (hidden) and
 * the marketing link's address come with the app.
 */
function locationFirstScreen(
  locale: Locale,
  t: (msgid: string) => string,
  eventName: string,
  slug: string,
  devices: Device[],
): string {
  const e = (msgid: string) => escapeHtml(t(msgid))
  const steps = STEP_LABELS.map(
    (label, i) =>
      `<li class="steps__item  ${i === 0 ? 'steps__item--current' : ''}"${i === 0 ? ' aria-current="step"' : ''}>` +
      `<span class="steps__dot" aria-hidden="true"></span><span class="steps__label">${e(label)}</span></li>`,
  ).join('')
  const stepNow = t('Step {0} of {1}')
    .replace('{0}', '1')
    .replace('{1}', String(STEP_LABELS.length))
  const skeleton = '<div class="skeleton" style="height:132px"></div>'
  return (
    '<div class="pwa-banners"></div><div class="layout">' +
    `<a class="skip-link" href="#main">${e('Skip to content')}</a>` +
    '<header class="header"><div class="header__bar">' +
    `<button type="button" class="header__back" disabled aria-label="${e('Back')}"><svg viewBox="0 0 24 24" width="22" height="22" aria-hidden="true"><path d="M15 5l-7 7 7 7" fill="none" stroke="currentColor" stroke-width="2"></path></svg></button>` +
    '<a class="header__logo"><span class="logo__mark" aria-hidden="true">◆</span><span class="logo__word">Shouts</span>' +
    `<span class="visually-hidden">${e('Shouts home')}</span></a>` +
    `<div class="header__tools">${languageButton(locale, t)}` +
    `<button type="button" class="header__burger" aria-expanded="false" disabled aria-label="${e('Open menu')}"><svg viewBox="0 0 24 24" width="24" height="24" aria-hidden="true"><path d="M4 7h16M4 12h16M4 17h16" stroke="currentColor" stroke-width="2"></path></svg></button>` +
    '</div></div></header>' +
    '<div class="layout__content"><main class="page page--flow" id="main">' +
    `<nav class="steps" aria-label="${e('Order steps')}"><p class="steps__now">${escapeHtml(stepNow)}: <strong>${e(STEP_LABELS[0] ?? '')}</strong></p>` +
    `<ol class="steps__list">${steps}</ol></nav>` +
    `<h1 class="page__title">${e('Choose a billboard')}</h1><p class="page__lead">${escapeHtml(eventName)}</p>` +
    `<div class="location"><section class="location__map" aria-label="${e('Map of the billboards')}"><div class="skeleton map-skeleton"></div></section>` +
    `<section class="location__list" aria-labelledby="billboards-heading"><h2 id="billboards-heading" class="section-title">${e('Billboards')}</h2>` +
    (devices.length > 0
      ? `<ul class="cards">${devices.map((d, i) => billboardCard(locale, t, eventName, slug, d, i)).join('')}</ul>`
      : `<div class="skeleton-list" aria-hidden="true">${skeleton.repeat(3)}</div>`) +
    '</section></div>' +
    `<div class="action-bar"><p class="action-bar__info">${e('No billboard chosen yet')}</p>` +
    `<button type="button" class="btn btn--disabled btn--large btn--side-center" disabled><span class="btn__label">${e('Continue')}</span></button></div>` +
    '</main></div></div>'
  )
}

/** One billboard of the list as location-page.tsx renders it (none chosen yet). Its two buttons are
 * disabled until the app takes over; the directions link works at once. */
function billboardCard(
  locale: Locale,
  t: (msgid: string) => string,
  eventName: string,
  slug: string,
  device: Device,
  index: number,
): string {
  const e = escapeHtml
  const name = device.location
  const off = device.soldOut || device.unavailableForEvent
  const meta =
    t('Facing {0} traffic').replace('{0}', device.trafficDirection) +
    (device.screens > 1 ? ` · ${t('{0} screens').replace('{0}', String(device.screens))}` : '')
  const badge = device.soldOut
    ? t('This Billboard is Sold Out')
    : device.unavailableForEvent
      ? t('Not Available For {event}').replace('{event}', () => eventName)
      : null
  const prefix = locale === 'en' ? '' : `/${locale}`
  const directions = `${prefix}/${encodeURIComponent(slug)}/shout-location?deviceId=${encodeURIComponent(device.deviceId)}`
  return (
    `<li class="card billboard  ${off ? 'card--off' : ''}">` +
    `<img width="160" height="100" loading="${index < 2 ? 'eager' : 'lazy'}" fetchpriority="${index === 0 ? 'high' : 'auto'}" class="billboard__img" alt="" src="${e(device.imageUrl)}">` +
    `<div class="billboard__body"><h3 class="billboard__name">${e(name)}</h3>` +
    `<p class="billboard__city">${e(cityStateLabel(device))}</p><p class="billboard__meta">${e(meta)}</p>` +
    (badge ? `<p class="badge badge--off">${e(badge)}</p>` : '') +
    '<div class="billboard__actions">' +
    `<button aria-pressed="false" aria-label="${e(t('Choose {0}').replace('{0}', () => name))}" type="button" class="btn ${off ? 'btn--disabled' : 'btn--orange'} btn--small btn--side-center" disabled><span class="btn__label">${e(t('Choose'))}</span></button>` +
    `<button aria-label="${e(t('Street view of {0}').replace('{0}', () => name))}" type="button" class="btn btn--smoke btn--small btn--side-center" disabled><span class="btn__label">${e(t('Street view'))}</span></button>` +
    `<a class="link" aria-label="${e(t('How to get there: {0}').replace('{0}', () => name))}" href="${e(directions)}">${e(t('How to get there'))}</a>` +
    '</div></div></li>'
  )
}
