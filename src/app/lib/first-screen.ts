// The first screens, where a shopper lands (the home page, the location step a billboard's
// QR code leads to, event-not-found). The server renders them (src/app/entry-server.tsx), their code
// is in the app's own chunk (vite.config.ts does not split their routes) and their texts are the
// catalogs' first part (src/locale/catalog-parts.ts). The later steps need the shopper's saved order,
// which only the browser has: they render there, from the plain shell, as every page does offline.

/** The pages the server renders (route ids of TanStack's file routes, src/app/routes). */
export const SERVER_RENDERED_ROUTES: ReadonlySet<string> = new Set([
  '/',
  '/_default/event-not-found',
  // the QR code's /{eventslug}: the route's redirect to the location step
  '/_default/$eventslug/',
  '/_default/$eventslug/_steps/design/location',
])

/** Those pages and the layout routes around them. */
export const FIRST_SCREEN_ROUTES: ReadonlySet<string> = new Set([
  ...SERVER_RENDERED_ROUTES,
  '__root__',
  '/_default',
  '/_default/$eventslug',
  '/_default/$eventslug/_steps',
])

/** The first screen's JavaScript budget, gzipped: every script loaded until the network is idle
 * (tests/e2e/budget.spec.ts; `npm run size` shows what it holds, module by module). */
export const FIRST_SCREEN_BUDGET_BYTES = 125 * 1024
