import './styles/app.css'
import { APP_CHUNKS } from '../contract/ssr'
import { CHUNK_RELOAD_GUARD_MS } from '../domain/storage'

// spec §8: a failed code-chunk load reloads the page, at most once per 60 s.
window.addEventListener('vite:preloadError', (event) => {
  const key = 'shouts:chunk-reload'
  const last = Number(sessionStorage.getItem(key) ?? 0)
  if (Date.now() - last < CHUNK_RELOAD_GUARD_MS) return
  sessionStorage.setItem(key, String(Date.now()))
  event.preventDefault()
  window.location.reload()
})

// Lighthouse (issue 4, issue 11): the server sends the first screen in its HTML
// (src/server/platform/ssr.ts) and the modulepreload links of the app's chunks in an inert <template>
// (APP_CHUNKS); they are put to work here, with the app's import, once that first screen has been
// painted (the frame after next), not with the page: the page is there to read without them, and
// Lighthouse's simulated LCP counted every request that had finished before the first paint, the
// app's 105 KB among them. The app is evaluated then too: on a phone its evaluation and first render
// take hundreds of milliseconds, during which the page would stay blank.
let started = false
const boot = () => {
  if (started) return
  started = true
  const chunks = document.getElementById(APP_CHUNKS) as HTMLTemplateElement | null
  if (chunks) document.head.append(chunks.content)
  void import('./start').then(({ start }) => start())
}
requestAnimationFrame(() => setTimeout(boot, 0))
// a tab opened in the background gets no animation frames: start anyway
setTimeout(boot, 500)
