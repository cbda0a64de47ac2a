import { useRouterState } from '@tanstack/react-router'
import { useEffect, useState } from 'react'

// spec §9: the navigation progress bar — 200 ms throttle, 5000 ms duration, 500 ms hide delay.
export const PROGRESS_THROTTLE_MS = 200
export const PROGRESS_DURATION_MS = 5000
export const PROGRESS_HIDE_DELAY_MS = 500

type Phase = 'idle' | 'running' | 'finishing'

export function ProgressBar() {
  const pending = useRouterState({ select: (s) => s.status === 'pending' || s.isLoading })
  const [phase, setPhase] = useState<Phase>('idle')

  useEffect(() => {
    if (pending) {
      // only navigations slower than the throttle show the bar
      const timer = setTimeout(() => setPhase('running'), PROGRESS_THROTTLE_MS)
      return () => clearTimeout(timer)
    }
    setPhase((current) => (current === 'running' ? 'finishing' : current))
    const timer = setTimeout(() => setPhase('idle'), PROGRESS_HIDE_DELAY_MS)
    return () => clearTimeout(timer)
  }, [pending])

  if (phase === 'idle') return null
  return (
    <div className="progress" aria-hidden="true">
      <div
        className={`progress__bar progress__bar--${phase}`}
        style={{ animationDuration: `${PROGRESS_DURATION_MS}ms` }}
      />
    </div>
  )
}
