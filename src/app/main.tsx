import './styles/app.css'
import { APP_CHUNKS } from '../contract/ssr'
import { CHUNK_RELOAD_GUARD_MS, RECONNECT_GRACE_MS } from '../domain/storage'

// spec §8: a failed code-chunk load reloads the page (a new deploy's chunks), at most once per 60 s.
// Not while offline: before the service worker holds the app (the first seconds of a first visit) the
// reload would land on the browser's own offline page. The import fails instead: an optional part is
// left out and a page says the shopper is offline (src/app/lib/optional-part.tsx). TanStack Router
// reloads once a session on a route's missing chunk (lazyRouteComponent) unless its key says it has.
// Nor in the moments after the connection comes back: 'online' fires before requests go through,
// and a chunk failing then is the connection's, not a deploy's (src/app/lib/reconnect.ts).
let onlineAt = Number.NEGATIVE_INFINITY
window.addEventListener('online', () => {
  onlineAt = Date.now()
})
window.addEventListener('vite:preloadError', (event) => {
  if (!navigator.onLine || Date.now() - onlineAt < RECONNECT_GRACE_MS) {
    sessionStorage.setItem(`tanstack_router_reload:${(event.payload as Error).message}`, '1')
    return
  }
  const key = 'shouts:chunk-reload'
  const last = Number(sessionStorage.getItem(key) ?? 0)
  if (Date.now() - last < CHUNK_RELOAD_GUARD_MS) return
  sessionStorage.setItem(key, String(Date.now()))
  event.preventDefault()
  window.location.reload()
})

// Lighthouse: the server sends the first screen in its HTML
// (src/server/platform/ssr.ts) and the modulepreload links of the app's chunks in an inert <template>
// (APP_CHUNKS); they are put to work here, with the app's import, once that first screen is on
// screen, not with the page: the page is there to read without them, and Lighthouse's simulated LCP
// counts every request that had finished before the observed paint. The browser's own report of the
// first contentful paint is the signal: it comes once the frame is presented. The frame after next
// (requestAnimationFrame, then a task) came before the presentation on a fast network, and the app's
// chunks finished before the paint was reported in two runs of five: LCP 1.9 s instead of 1.0 s.
// The app is evaluated then too: on a phone its evaluation and first render take hundreds of
// milliseconds, during which the page would stay blank. The worker's shell (no template) has nothing
// to paint without the app: it starts at once.
const chunks = document.getElementById(APP_CHUNKS) as HTMLTemplateElement | null
let started = false
const boot = () => {
  if (started) return
  started = true
  if (chunks) document.head.append(chunks.content)
  void import('./start')
}
if (chunks) {
  // a tab opened in the background paints nothing, a browser without paint timing reports nothing:
  // start anyway
  setTimeout(boot, 500)
  new PerformanceObserver((list) => {
    if (list.getEntriesByName('first-contentful-paint')[0]) setTimeout(boot)
  }).observe({ type: 'paint', buffered: true })
} else boot()
