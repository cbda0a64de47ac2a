import { Trans, useLingui } from '@lingui/react/macro'
import { type CSSProperties, useEffect, useRef, useState } from 'react'
import type { ScheduleItem } from '../../contract/player'
import { offsetSeconds } from '../../domain/playout'
import { activateLocale } from '../locale/i18n'
import { createPlayerEngine, type PlayerEngine, type PlayerView } from './engine'
import { HouseCard } from './house-card'
import { readToken, saveToken } from './store'

// The billboard's full-screen player: `/play/{deviceId}?token=…` opened once by a kiosk
// browser or a signage player and left running. The token goes to IndexedDB and out of the address
// bar at once; the page sends no referrer; the screen stays awake and the cursor hidden.

const screen: CSSProperties = {
  position: 'fixed',
  inset: 0,
  background: '#000',
  color: '#fff',
  cursor: 'none',
  overflow: 'hidden',
  display: 'flex',
  alignItems: 'center',
  justifyContent: 'center',
}
// scaled to the screen with the content's own aspect ratio
const media: CSSProperties = { width: '100%', height: '100%', objectFit: 'contain' }
const statusLine: CSSProperties = {
  position: 'absolute',
  left: 8,
  bottom: 6,
  fontSize: 12,
  opacity: 0.7,
  fontFamily: 'system-ui, sans-serif',
  color: '#fff',
  textShadow: '0 0 2px #000',
}

/** Reads the token from the address (then removes it from there) or from IndexedDB. */
async function takeToken(deviceId: string): Promise<string | null> {
  const url = new URL(window.location.href)
  const fromUrl = url.searchParams.get('token')
  if (fromUrl) {
    await saveToken(deviceId, fromUrl)
    url.searchParams.delete('token')
    // the token never stays in the address bar, the history or a bookmark
    window.history.replaceState(window.history.state, '', url.pathname + url.search + url.hash)
    return fromUrl
  }
  return readToken(deviceId)
}

function noReferrerMeta() {
  if (document.querySelector('meta[name="referrer"]')) return
  const meta = document.createElement('meta')
  meta.name = 'referrer'
  meta.content = 'no-referrer'
  document.head.append(meta)
}

function useWakeLock() {
  useEffect(() => {
    type Sentinel = { release(): Promise<void> }
    const nav = navigator as Navigator & {
      wakeLock?: { request(type: 'screen'): Promise<Sentinel> }
    }
    let sentinel: Sentinel | null = null
    const request = () => {
      if (document.visibilityState !== 'visible' || !nav.wakeLock) return
      nav.wakeLock.request('screen').then(
        (s) => {
          sentinel = s
        },
        () => undefined, // refused (no user gesture, battery saver): the screen settings rule
      )
    }
    request()
    // the lock is dropped when the page is hidden: ask again when it shows
    document.addEventListener('visibilitychange', request)
    return () => {
      document.removeEventListener('visibilitychange', request)
      void sentinel?.release().catch(() => undefined)
    }
  }, [])
}

function Content({ item, engine }: { item: ScheduleItem; engine: PlayerEngine }) {
  const video = useRef<HTMLVideoElement>(null)
  if (item.content.type === 'video') {
    return (
      <video
        ref={video}
        key={`${item.orderGuid}-${item.slotNumber}-${item.playIndex}`}
        src={item.content.url}
        style={media}
        muted
        playsInline
        autoPlay
        preload="auto"
        onLoadedMetadata={(e) => {
          // joined mid-play: start where the play is now, as every other screen would show it
          const offset = offsetSeconds(item, engine.now())
          if (offset > 0.5 && offset < e.currentTarget.duration)
            e.currentTarget.currentTime = offset
        }}
        onPlaying={() => engine.shown(item)}
        onError={() => engine.failed(item)}
      />
    )
  }
  return (
    <img
      key={`${item.orderGuid}-${item.slotNumber}-${item.playIndex}`}
      src={item.content.url}
      alt=""
      style={media}
      referrerPolicy="no-referrer"
      onLoad={() => engine.shown(item)}
      onError={() => engine.failed(item)}
    />
  )
}

export function PlayerPage({ deviceId }: { deviceId: string }) {
  const { t } = useLingui()
  const [view, setView] = useState<PlayerView | null>(null)
  const [missingToken, setMissingToken] = useState(false)
  const [engine, setEngine] = useState<PlayerEngine | null>(null)
  useWakeLock()

  useEffect(() => {
    noReferrerMeta()
    let running: PlayerEngine | null = null
    let cancelled = false
    void takeToken(deviceId).then((token) => {
      if (cancelled) return
      if (!token) {
        setMissingToken(true)
        return
      }
      running = createPlayerEngine(deviceId, token, setView)
      setEngine(running)
      void running.start()
    })
    return () => {
      cancelled = true
      running?.stop()
    }
  }, [deviceId])

  // the house card speaks the billboard's language (from its country)
  const locale = view?.schedule?.house.locale
  useEffect(() => {
    if (locale) void activateLocale(locale)
  }, [locale])

  const current = view?.current ?? null
  const house = view?.schedule?.house ?? null
  const status = view?.status
  const failed = status?.failedFiles ?? 0
  const waiting = status?.pendingPlays ?? 0
  return (
    <main style={screen} data-testid="player" aria-label={t`Billboard player`}>
      {missingToken ? (
        <p>
          <Trans>This player needs its link: run npm run player-link for this billboard.</Trans>
        </p>
      ) : current && engine && !view?.currentFailed ? (
        <Content item={current} engine={engine} />
      ) : house ? (
        <HouseCard house={house} />
      ) : null}
      {status ? (
        <p style={statusLine} data-testid="player-status">
          {status.tokenRefused ? <Trans>Player link refused: make a new one.</Trans> : null}{' '}
          {failed > 0 ? <Trans>{failed} file(s) failed</Trans> : null}{' '}
          {waiting > 0 ? <Trans>{waiting} play(s) to send</Trans> : null}
        </p>
      ) : null}
    </main>
  )
}
