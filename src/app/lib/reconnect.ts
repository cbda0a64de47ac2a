import { API_BASE } from '../../contract/endpoint'
import { meta } from '../../contract/meta'

// 'online' says a network is up, not that the shop answers: a phone regaining signal (and Chrome's
// own switch back online) fires it a moment before requests go through. Code asked for right then
// fails again, and the page would stay on its offline notice or, worse, read the failed chunk as a
// deploy's and reload onto the browser's own offline page. What waits for the connection starts
// once the shop answers.

const TRIES = 12
const FIRST_WAIT_MS = 200

async function shopAnswers(): Promise<boolean> {
  for (let i = 0; i < TRIES; i++) {
    if (!navigator.onLine) return false
    try {
      const res = await fetch(`${API_BASE}${meta.health.path}`, { cache: 'no-store' })
      if (res.ok) return true
    } catch {
      // not through yet
    }
    await new Promise((resolve) => setTimeout(resolve, FIRST_WAIT_MS * (i + 1)))
  }
  return false
}

/** Calls `then` each time the browser is back online and the shop answers; returns the stop. */
export function onReconnect(then: () => void): () => void {
  let stopped = false
  const listener = () => {
    void shopAnswers().then((answers) => {
      if (answers && !stopped) then()
    })
  }
  window.addEventListener('online', listener)
  return () => {
    stopped = true
    window.removeEventListener('online', listener)
  }
}
