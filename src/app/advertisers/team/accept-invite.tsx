import { Trans, useLingui } from '@lingui/react/macro'
import { type FormEvent, useEffect, useState } from 'react'
import { advertiserTeam } from '../../../contract/advertisers-team'
import type { ProblemData } from '../../../domain/problems'
import { problemsOfError } from '../../features/advertisers/problems'
import { signIn } from '../../features/advertisers/session'
import { callApi } from '../../lib/api'
import { Button } from '../../ui/button'
import { ProblemList } from '../../ui/problem-list'
import { TextField } from '../../ui/text-field'

/** The invitation's one-time link (`#invite=…`), read once and taken out of the address. */
function inviteOfHash(): string | null {
  const found = /^#invite=([\w-]+)$/.exec(window.location.hash)
  if (!found?.[1]) return null
  history.replaceState(history.state, '', window.location.pathname + window.location.search)
  return found[1]
}

/**
 * Joining a team from the invitation's mail: the colleague chooses a name and a password, the login
 * is made (the link proved the e-mail) and signed in. Nothing shows without an invitation's link.
 */
export function AcceptInvite() {
  const { t } = useLingui()
  const [token, setToken] = useState<string | null>(null)
  const [name, setName] = useState('')
  const [password, setPassword] = useState('')
  const [problems, setProblems] = useState<ProblemData[]>([])
  const [busy, setBusy] = useState(false)

  useEffect(() => {
    const follow = () => {
      const found = inviteOfHash()
      if (found) setToken(found)
    }
    follow()
    window.addEventListener('hashchange', follow)
    return () => window.removeEventListener('hashchange', follow)
  }, [])

  if (!token) return null
  const submit = async (e: FormEvent) => {
    e.preventDefault()
    setBusy(true)
    setProblems([])
    try {
      const made = await callApi(advertiserTeam.acceptInvite, {
        body: { token, name: name.trim(), password },
      })
      await signIn(made.email, password)
      setToken(null)
    } catch (error) {
      setProblems(problemsOfError(error))
    } finally {
      setBusy(false)
    }
  }
  return (
    <section className="card" aria-labelledby="adv-join">
      <h2 className="section-title" id="adv-join">
        <Trans>Join your team</Trans>
      </h2>
      <form onSubmit={(e) => void submit(e)} noValidate>
        <TextField
          label={t`Your name`}
          autoComplete="name"
          required
          value={name}
          onChange={(e) => setName(e.target.value)}
        />
        <TextField
          label={t`Choose a password`}
          type="password"
          autoComplete="new-password"
          required
          value={password}
          onChange={(e) => setPassword(e.target.value)}
        />
        {problems.length > 0 ? <ProblemList problems={problems} /> : null}
        <div className="adv__actions">
          <Button kind={busy ? 'loading' : 'black'} size="field" htmlType="submit">
            <Trans>Join the team</Trans>
          </Button>
        </div>
      </form>
    </section>
  )
}
