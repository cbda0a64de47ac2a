import type { MessageDescriptor } from '@lingui/core'
import { msg } from '@lingui/core/macro'
import { useLingui } from '@lingui/react/macro'
import { useEffect, useState } from 'react'
import { advertiserDoor, type PasswordStrength } from '../../../contract/advertisers-door'
import { callApi } from '../../lib/api'

/** How long typing must pause before the password is judged (the server counts the calls). */
const PAUSE_MS = 400

const LABELS: readonly MessageDescriptor[] = [
  msg`Very weak: easy to guess`,
  msg`Weak: easy to guess`,
  msg`Not strong enough yet: add a few unrelated words`,
  msg`Strong enough`,
  msg`Very strong`,
]

/**
 * How strong the password typed is, by sign-up's own judge (zxcvbn on the server, knowing the
 * e-mail, name and company typed with it): the meter never calls "strong" a password sign-up then
 * refuses. Asked once typing pauses; an answer for a password since changed is dropped.
 */
export function PasswordStrengthMeter(props: {
  password: string
  email: string
  name: string
  company: string
}) {
  const { i18n } = useLingui()
  const [judged, setJudged] = useState<{ password: string; strength: PasswordStrength } | null>(
    null,
  )
  const { password, email, name, company } = props

  useEffect(() => {
    if (!password) return
    const abort = new AbortController()
    const timer = setTimeout(() => {
      callApi(advertiserDoor.passwordStrength, {
        signal: abort.signal,
        body: { password, email, name, company },
      })
        .then((strength) => setJudged({ password, strength }))
        // no verdict (offline, limited): sign-up judges it all the same
        .catch(() => undefined)
    }, PAUSE_MS)
    return () => {
      clearTimeout(timer)
      abort.abort()
    }
  }, [password, email, name, company])

  if (!password || judged?.password !== password) return null
  const { score, strongEnough } = judged.strength
  const label = i18n._(LABELS[score] ?? (LABELS[0] as MessageDescriptor))
  return (
    <div className="adv__strength" aria-live="polite">
      {/* a picture of the words beside it, which say it to a screen reader */}
      <meter min={0} max={4} low={2} high={3} optimum={4} value={score} aria-hidden="true" />
      <span className={strongEnough ? undefined : 'field__error'}>{label}</span>
    </div>
  )
}
