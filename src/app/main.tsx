import './styles/app.css'
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

// Lighthouse (issue 4): the server sends the first screen in the HTML
// (src/server/platform/prerender.ts) and the app's code as modulepreload links, so both arrive
// together. The app's modules are evaluated only after that first screen has been painted (the
// frame after next), not before it: on a phone their evaluation and first render take hundreds of
// milliseconds, during which the page would stay blank.
let started = false
const boot = () => {
  if (started) return
  started = true
  void import('./start').then(({ start }) => start())
}
requestAnimationFrame(() => setTimeout(boot, 0))
// a tab opened in the background gets no animation frames: start anyway
setTimeout(boot, 500)
