import { Trans, useLingui } from '@lingui/react/macro'
import { type ReactNode, useEffect, useState } from 'react'
import type { ProblemData } from '../../domain/problems'
import { isLocale } from '../locale/i18n'
import { Button } from '../ui/button'
import { Notice } from '../ui/notice'
import { ProblemList } from '../ui/problem-list'
import { ApiError } from './api'
import {
  alertsOnHere,
  type OrderRef,
  PlayAlertRefused,
  playAlertSupport,
  turnAlertsOff,
  turnAlertsOn,
} from './play-alerts'

// "Tell me when it plays" on the order's page (api-v1 "Play alerts": a notification 5 minutes before
// each shout time and once it has played). Its own chunk, loaded by the confirmation page.

type State =
  | { kind: 'checking' }
  | { kind: 'off' }
  | { kind: 'busy'; turningOn: boolean }
  | { kind: 'on'; id: string }

type Trouble = PlayAlertRefused['reason'] | 'offline' | { problems: ProblemData[] }

export default function PlayAlerts({ eventSlug, guid }: OrderRef) {
  const { i18n } = useLingui()
  const [support] = useState(playAlertSupport)
  const [state, setState] = useState<State>({ kind: 'checking' })
  const [trouble, setTrouble] = useState<Trouble | null>(null)

  useEffect(() => {
    if (support !== 'push') return
    let live = true
    alertsOnHere({ eventSlug, guid })
      .then((id) => live && setState(id ? { kind: 'on', id } : { kind: 'off' }))
      .catch(() => live && setState({ kind: 'off' }))
    return () => {
      live = false
    }
  }, [support, eventSlug, guid])

  if (support === 'none') return null
  if (support === 'install-first') {
    return (
      <Section>
        <Notice>
          <Trans>
            To be told on this iPhone or iPad when your shout plays, add Shouts to your home screen
            first (Share, then Add to Home Screen), then open your order from there.
          </Trans>
        </Notice>
      </Section>
    )
  }

  const failed = (error: unknown) => {
    if (error instanceof PlayAlertRefused) setTrouble(error.reason)
    else if (error instanceof ApiError && error.problems.length > 0)
      setTrouble({ problems: error.problems })
    else setTrouble('offline')
  }

  const turnOn = async () => {
    setTrouble(null)
    setState({ kind: 'busy', turningOn: true })
    try {
      const locale = isLocale(i18n.locale) ? i18n.locale : 'en'
      const made = await turnAlertsOn({ eventSlug, guid }, locale)
      setState({ kind: 'on', id: made.id })
    } catch (error) {
      setState({ kind: 'off' })
      failed(error)
    }
  }

  const turnOff = async (id: string) => {
    setTrouble(null)
    setState({ kind: 'busy', turningOn: false })
    try {
      await turnAlertsOff({ eventSlug, guid }, id)
      setState({ kind: 'off' })
    } catch (error) {
      setState({ kind: 'on', id })
      failed(error)
    }
  }

  return (
    <Section>
      {state.kind === 'on' ? (
        <>
          <p role="status">
            <Trans>Alerts are on: this device will tell you when your shout plays.</Trans>
          </p>
          <Button kind="white" onClick={() => void turnOff(state.id)}>
            <Trans>Turn alerts off</Trans>
          </Button>
        </>
      ) : (
        <>
          <p className="muted">
            <Trans>
              A notification 5 minutes before each of your shout times, and another once it has
              played.
            </Trans>
          </p>
          <Button
            kind="orange"
            onClick={() => void turnOn()}
            disabled={state.kind !== 'off'}
            aria-busy={state.kind === 'busy'}
          >
            <Trans>Tell me when it plays</Trans>
          </Button>
        </>
      )}
      {trouble ? <TroubleNote trouble={trouble} /> : null}
    </Section>
  )
}

function Section({ children }: { children: ReactNode }) {
  return (
    <section className="card play-alerts" aria-labelledby="alerts-heading">
      <h2 id="alerts-heading" className="section-title">
        <Trans>Play alerts</Trans>
      </h2>
      {children}
    </section>
  )
}

function TroubleNote({ trouble }: { trouble: Trouble }) {
  if (typeof trouble === 'object')
    return (
      <Notice tone="error">
        <ProblemList problems={trouble.problems} />
      </Notice>
    )
  return (
    <Notice tone="error">
      {trouble === 'permission-denied' ? (
        <Trans>
          Notifications are blocked for this site. Allow them in your browser's settings, then try
          again.
        </Trans>
      ) : trouble === 'permission-dismissed' ? (
        <Trans>Alerts need your permission to show notifications.</Trans>
      ) : trouble === 'push-failed' ? (
        <Trans>This browser could not sign up for notifications.</Trans>
      ) : (
        <Trans>The alerts could not be changed. Check your connection and try again.</Trans>
      )}
    </Notice>
  )
}
