import type { Locale } from '../domain/locale'

// The server renders the first screen with the app's own components, from the app's server
// build (Vite's SSR output, build/server/entry-server.js, made from src/app/entry-server.tsx). The
// server never imports src/app (docs/architecture.md): it loads that file at run time and speaks to
// it through these types, which both sides check against. No DOM or Node types here: the renderer's
// input and output are plain data, and HTTP stays the server's.

/** An answer of /api/v1 as the renderer reads it (a fetch Response, or Hono's in-process one). */
export type SsrApiAnswer = { readonly status: number; json(): Promise<unknown> }

/** /api/v1 answered in process: the renderer's route loaders call the API through it, never the
 * network. `path` is what pathOf() built (/api/v1/...). */
export type SsrApi = (
  path: string,
  init: { method: string; headers: Record<string, string>; body?: string },
) => Promise<SsrApiAnswer>

/**
 * What a path is to the app, told before any work from its route tree alone:
 * - `none`: no route matches (the app shows its 404 page);
 * - `shell`: a route the browser renders (a later step, which needs the shopper's saved state);
 * - `render`: a route the server renders (the first screens: home, the location step, the QR
 *   landing that redirects to it, event-not-found).
 * `slug` is the event a route names (its $eventslug), `routeIds` the matched branch, root excluded.
 */
export type SsrMatch = {
  kind: 'none' | 'shell' | 'render'
  routeIds: readonly string[]
  slug: string | null
}

export type SsrRenderInput = {
  /** the path without its locale prefix, no query */
  path: string
  /** The billboard of a QR code's arrival (/{event}?device=…), only when the event has it: the
   * location step then shows it first from its first paint (added after hydration, it moved the whole
   * list down: a layout shift of 0.5). Nothing else of the query changes what is rendered. */
  device?: string | null
  locale: Locale
  /** the client build's dist/index.html: the page is rendered into its #root */
  template: string
}

export type SsrRenderResult =
  | { kind: 'page'; status: number; html: string }
  /** a route's redirect; `location` is a path (with the locale prefix), without a query */
  | { kind: 'redirect'; status: number; location: string }

export type SsrRenderer = {
  classify(pathname: string): SsrMatch & { locale: Locale; path: string }
  render(input: SsrRenderInput): Promise<SsrRenderResult>
}

/** The module build/server/entry-server.js exports. */
export type SsrModule = {
  createRenderer(options: {
    api: SsrApi
    /** a render error (the page is then answered, not cached, and the browser renders it again) */
    onError?: (error: unknown) => void
  }): SsrRenderer
}

/** The id of the `<template>` in a server-rendered page that holds the modulepreload links of the
 * app's chunks, inert until the entry moves them into the head once the page is painted
 * (src/app/main.tsx). */
export const APP_CHUNKS = 'app-chunks'
