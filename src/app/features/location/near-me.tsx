import { Trans } from '@lingui/react/macro'
import { useState } from 'react'
import type { LngLat } from '../../../domain/geo'
import { Button } from '../../ui/button'

// "Near me": the position is asked for only when the shopper taps (never on arrival). A refusal, or
// a phone without a fix, leaves the list as it was and says so in one line.

type Asking = 'idle' | 'asking' | 'unavailable'

export function NearMeButton({ onPosition }: { onPosition: (position: LngLat) => void }) {
  const [state, setState] = useState<Asking>('idle')
  const ask = () => {
    if (!('geolocation' in navigator)) {
      setState('unavailable')
      return
    }
    setState('asking')
    navigator.geolocation.getCurrentPosition(
      (position) => {
        setState('idle')
        onPosition({ lat: position.coords.latitude, lng: position.coords.longitude })
      },
      () => setState('unavailable'),
      { enableHighAccuracy: true, timeout: 15_000, maximumAge: 60_000 },
    )
  }
  return (
    <div className="near-me">
      <Button
        kind="smoke"
        size="small"
        onClick={ask}
        aria-busy={state === 'asking'}
        disabled={state === 'asking'}
      >
        <Trans>Near me</Trans>
      </Button>
      <p className="near-me__status" role="status">
        {state === 'unavailable' ? <Trans>Your position is not available.</Trans> : null}
      </p>
    </div>
  )
}

/** "350 m", "1.2 km": how far a billboard is, written by ./near-me-distances.ts. */
export function DistanceLabel({ distance }: { distance: string }) {
  return <span className="billboard__distance">{` · ${distance}`}</span>
}
