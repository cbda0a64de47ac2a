import { setupI18n } from '@lingui/core'
import { msg } from '@lingui/core/macro'
import { I18nProvider } from '@lingui/react'
import {
  createRequestHandler,
  getSsrStatus,
  RouterServer,
  transformHtmlStringWithRouter,
} from '@tanstack/react-router/ssr/server'
import { renderToReadableStream } from 'react-dom/server'
import type {
  SsrMatch,
  SsrModule,
  SsrRenderer,
  SsrRenderInput,
  SsrRenderResult,
} from '../contract/ssr'
import { setApiTransport } from './lib/api'
import { SERVER_RENDERED_ROUTES } from './lib/first-screen'
import { HydrationGate } from './lib/hydration'
import { catalogOf, splitLocalePath, withLocalePrefix } from './locale/i18n'
import { createAppRouter } from './router'

// The first screen rendered on the server by the app's own components and route loaders
// (TanStack Router's SSR without Start), into the client build's index.html, and hydrated by
// src/app/start.tsx. Built by `vite build --ssr` into build/server/ (outside dist/: neither served nor
// precached) and loaded by the server at run time (src/server/platform/ssr.ts), which never imports
// src/app: the types between the two are src/contract/ssr.ts.

// The renderer's requests never leave the process; redirects are answered as paths.
const ORIGIN = 'http://ssr.invalid'
// A render that hangs (a stuck database) gives up, and the server answers the plain shell instead.
const RENDER_TIMEOUT_MS = 10_000

/** The module's one export, typed by the contract the server loads it with. */
export const createRenderer: SsrModule['createRenderer'] = ({ api, onError }): SsrRenderer => {
  setApiTransport((path, init) =>
    api(path, {
      method: init.method,
      headers: init.headers,
      body: typeof init.body === 'string' ? init.body : undefined,
    }),
  )
  // Matching only (no loading, no rendering): one router for the process is enough.
  const matcher = createAppRouter({ i18n: setupI18n() })

  const classify = (pathname: string) => {
    const { locale, path } = splitLocalePath(pathname)
    const [branch, params, found] = matcher.getMatchedRoutes(path)
    const routeIds = branch.map((r) => r.id).filter((id) => id !== '__root__')
    // a partial (fuzzy) match is the app's not-found page, not its route
    const exact = found !== undefined && !('**' in params) && found.id === routeIds.at(-1)
    const kind: SsrMatch['kind'] = !exact
      ? 'none'
      : SERVER_RENDERED_ROUTES.has(found.id)
        ? 'render'
        : 'shell'
    const slug = typeof params.eventslug === 'string' ? params.eventslug : null
    return { kind, routeIds, slug, locale, path }
  }

  const render = async ({
    path,
    locale,
    template,
    device,
  }: SsrRenderInput): Promise<SsrRenderResult> => {
    // one i18n per request, activated before the first render (the router's prefix reads it too)
    const i18n = setupI18n()
    i18n.loadAndActivate({ locale, messages: await catalogOf(locale) })
    const url = new URL(withLocalePrefix(path, locale), ORIGIN)
    if (device) url.searchParams.set('device', device)
    const request = new Request(url, {
      signal: AbortSignal.timeout(RENDER_TIMEOUT_MS),
    })
    let failed = false
    const handler = createRequestHandler({
      request,
      createRouter: () => createAppRouter({ i18n }),
    })
    const response = await handler(async ({ router, responseHeaders }) => {
      const stream = await renderToReadableStream(
        <HydrationGate>
          <I18nProvider i18n={i18n}>
            <RouterServer router={router} />
          </I18nProvider>
        </HydrationGate>,
        {
          progressiveChunkSize: Number.POSITIVE_INFINITY,
          signal: request.signal,
          onError: (error) => {
            failed = true
            onError?.(error)
          },
        },
      )
      // The loaders have awaited the page's data: the whole page is ready at once, and the server
      // caches it (src/server/platform/ssr.ts), so it is sent whole rather than streamed.
      await stream.allReady
      const app = await new Response(stream).text()
      const document = fillTemplate(template, {
        lang: locale,
        title: i18n._(msg`Share the Gift of a Billboard`),
        app,
      })
      const html = await transformHtmlStringWithRouter(router, document, {
        signal: request.signal,
      })
      return new Response(html, { status: getSsrStatus(router), headers: responseHeaders })
    })
    const location = response.headers.get('location')
    if (response.status >= 300 && response.status < 400 && location) {
      const url = new URL(location, ORIGIN)
      return { kind: 'redirect', status: response.status, location: url.pathname }
    }
    const html = await response.text()
    return { kind: 'page', status: failed ? 500 : response.status, html }
  }

  return { classify, render }
}

const escapeText = (text: string) =>
  text.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;')

/** The page in the built index.html: its language, its title, the app in #root. */
function fillTemplate(
  template: string,
  { lang, title, app }: { lang: string; title: string; app: string },
): string {
  return (
    template
      // the router's transform writes the doctype itself
      .replace(/^\s*<!doctype html>\s*/i, '')
      .replace(/<html lang="[^"]*">/, `<html lang="${lang}">`)
      .replace(/<title>[^<]*<\/title>/, `<title>${escapeText(title)}</title>`)
      .replace('<div id="root"></div>', () => `<div id="root">${app}</div>`)
      // the router looks for these exact bytes to place late scripts
      .replace(/<\/body>\s*<\/html>\s*$/, '</body></html>')
  )
}
