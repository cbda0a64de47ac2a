import type { MessageDescriptor } from '@lingui/core'
import { msg } from '@lingui/core/macro'
import { Trans, useLingui } from '@lingui/react/macro'
import { type FormEvent, useEffect, useId, useState } from 'react'
import { advertiserTeam, type Team } from '../../../contract/advertisers-team'
import type { ProblemData } from '../../../domain/problems'
import { MEMBER_ROLES, type MemberRole } from '../../../domain/team'
import { problemsOfError } from '../../features/advertisers/problems'
import { callAsAdvertiser, signOut } from '../../features/advertisers/session'
import { Button } from '../../ui/button'
import { Notice } from '../../ui/notice'
import { ProblemList } from '../../ui/problem-list'
import { TextField } from '../../ui/text-field'

export const ROLE_LABELS: Record<MemberRole, MessageDescriptor> = {
  owner: msg`Owner: billing, cards and members`,
  editor: msg`Editor: campaigns and budgets`,
  viewer: msg`Viewer: reads campaigns, reports and invoices`,
}

/**
 * The team on the account page: its members and their roles, the invitations not accepted yet; an
 * owner invites by e-mail, changes roles and removes members; anyone but the last owner may leave.
 */
export function TeamCard() {
  const { t, i18n } = useLingui()
  const roleId = useId()
  const [team, setTeam] = useState<Team | null>(null)
  const [problems, setProblems] = useState<ProblemData[]>([])
  const [email, setEmail] = useState('')
  const [role, setRole] = useState<MemberRole>('editor')
  const [sent, setSent] = useState<string | null>(null)
  const [busy, setBusy] = useState(false)

  useEffect(() => {
    const abort = new AbortController()
    callAsAdvertiser(advertiserTeam.team, { signal: abort.signal })
      .then(setTeam)
      .catch((error: unknown) => {
        if (!abort.signal.aborted) setProblems(problemsOfError(error))
      })
    return () => abort.abort()
  }, [])

  const run = async (work: () => Promise<Team | null>) => {
    setBusy(true)
    setProblems([])
    try {
      const next = await work()
      if (next) setTeam(next)
    } catch (error) {
      setProblems(problemsOfError(error))
    } finally {
      setBusy(false)
    }
  }

  const invite = (e: FormEvent) => {
    e.preventDefault()
    void run(async () => {
      const next = await callAsAdvertiser(advertiserTeam.invite, { body: { email, role } })
      setSent(email)
      setEmail('')
      return next
    })
  }

  if (!team) {
    return problems.length > 0 ? <ProblemList problems={problems} /> : null
  }
  const owner = team.you.role === 'owner'
  return (
    <section className="card" aria-labelledby="adv-team">
      <h2 className="section-title" id="adv-team">
        <Trans>Your team</Trans>
      </h2>
      <p className="field__hint">
        <Trans>Your role: {i18n._(ROLE_LABELS[team.you.role])}</Trans>
      </p>
      <table className="adv__table">
        <tbody>
          {team.members.map((m) => (
            <tr key={m.memberId}>
              <td>
                {m.name}
                <br />
                <small>{m.email}</small>
              </td>
              <td>
                {owner ? (
                  <select
                    aria-label={t`Role of ${m.email}`}
                    value={m.role}
                    disabled={busy}
                    onChange={(e) => {
                      const next = e.target.value as MemberRole
                      void run(() =>
                        callAsAdvertiser(advertiserTeam.setRole, {
                          params: { memberId: m.memberId },
                          body: { role: next },
                        }),
                      )
                    }}
                  >
                    {MEMBER_ROLES.map((r) => (
                      <option key={r} value={r}>
                        {i18n._(ROLE_LABELS[r])}
                      </option>
                    ))}
                  </select>
                ) : (
                  i18n._(ROLE_LABELS[m.role])
                )}
              </td>
              <td>
                {owner && m.memberId !== team.you.memberId ? (
                  <Button
                    kind="white"
                    onClick={() =>
                      void run(() =>
                        callAsAdvertiser(advertiserTeam.remove, {
                          params: { memberId: m.memberId },
                        }),
                      )
                    }
                  >
                    {t`Remove`}
                  </Button>
                ) : null}
              </td>
            </tr>
          ))}
          {team.invites.map((i) => (
            <tr key={`${i.email}-${i.expiresAtEpochMs}`}>
              <td>
                <small>{i.email}</small>
              </td>
              <td>
                <Trans>Invited: {i18n._(ROLE_LABELS[i.role])}</Trans>
              </td>
              <td />
            </tr>
          ))}
        </tbody>
      </table>
      {owner ? (
        <form className="adv__actions" onSubmit={invite} noValidate>
          <TextField
            label={t`Colleague's e-mail`}
            type="email"
            autoComplete="off"
            value={email}
            onChange={(e) => setEmail(e.target.value)}
          />
          <div className="field">
            <label className="field__label" htmlFor={roleId}>
              <Trans>Role</Trans>
            </label>
            <select
              id={roleId}
              className="field__input"
              value={role}
              onChange={(e) => setRole(e.target.value as MemberRole)}
            >
              {MEMBER_ROLES.map((r) => (
                <option key={r} value={r}>
                  {i18n._(ROLE_LABELS[r])}
                </option>
              ))}
            </select>
          </div>
          <Button kind={busy ? 'loading' : 'black'} size="field" htmlType="submit">
            <Trans>Invite</Trans>
          </Button>
        </form>
      ) : null}
      {sent ? (
        <Notice>
          <Trans>We sent {sent} a link to join the team. It works once, for a week.</Trans>
        </Notice>
      ) : null}
      {problems.length > 0 ? <ProblemList problems={problems} /> : null}
      {team.members[0]?.memberId !== team.you.memberId ? (
        <div className="adv__actions">
          <Button
            kind="white"
            onClick={() =>
              void run(async () => {
                await callAsAdvertiser(advertiserTeam.leave, { body: {} })
                await signOut()
                return null
              })
            }
          >
            <Trans>Leave the team</Trans>
          </Button>
        </div>
      ) : null}
    </section>
  )
}
