import { Trans, useLingui } from '@lingui/react/macro'
import { Link, useNavigate, useSearch } from '@tanstack/react-router'
import { type FormEvent, useEffect, useState } from 'react'
import * as v from 'valibot'
import { useSnapshot } from 'valtio'
import {
  advertisers,
  PasswordResetConfirmSchema,
  SignUpRequestSchema,
} from '../../../contract/advertisers'
import { advertiserDoor } from '../../../contract/advertisers-door'
import { type Endpoint, pathOf } from '../../../contract/endpoint'
import type { ProblemData } from '../../../domain/problems'
import { fieldErrors } from '../../../domain/validation'
import { apiRequest, callApi } from '../../lib/api'
import { problemText } from '../../lib/problem-text'
import { isLocale } from '../../locale/i18n'
import { Button } from '../../ui/button'
import { Notice } from '../../ui/notice'
import { ProblemList } from '../../ui/problem-list'
import { TextField } from '../../ui/text-field'
import { safeNext } from './guard'
import { PasswordStrengthMeter } from './password-strength'
import { problemsOfError, splitProblems } from './problems'
import { advertiserSession, ensureSession, signIn, signOut } from './session'
import './advertisers.css'
import { BillingForm } from '../../advertisers/billing/billing-form'
import { InvoiceList } from '../../advertisers/billing/invoice-list'
import { AcceptInvite } from '../../advertisers/team/accept-invite'
import { TeamCard } from '../../advertisers/team/team-card'

type Mode = 'sign-in' | 'sign-up' | 'forgot' | 'reset'
type Form = { email: string; password: string; name: string; company: string }
type Field = keyof Form
const FIELDS: readonly Field[] = ['email', 'password', 'name', 'company']
const BY_CODE = { password_not_strong: 'password', email_invalid: 'email' } as const

/** The one-time link of a mail (`#verify=…`, `#reset=…`), read once and taken out of the address. */
function linkOfHash(): { kind: 'verify' | 'reset'; token: string } | null {
  const found = /^#(verify|reset)=([\w-]+)$/.exec(window.location.hash)
  if (!found?.[1] || !found[2]) return null
  history.replaceState(history.state, '', window.location.pathname + window.location.search)
  return { kind: found[1] as 'verify' | 'reset', token: found[2] }
}

/** `/account`: sign up, the verification link, sign in, a forgotten password, sign out. */
export function AccountPage() {
  const { t, i18n } = useLingui()
  const navigate = useNavigate()
  const search = useSearch({ strict: false }) as { next?: string; mode?: string }
  const session = useSnapshot(advertiserSession)
  // the /advertise page's "Start" opens sign-up
  const [mode, setMode] = useState<Mode>(search.mode === 'sign-up' ? 'sign-up' : 'sign-in')
  const [form, setForm] = useState<Form>({ email: '', password: '', name: '', company: '' })
  const [resetToken, setResetToken] = useState<string | null>(null)
  const [problems, setProblems] = useState<ProblemData[]>([])
  const [done, setDone] = useState<string | null>(null)
  const [busy, setBusy] = useState(false)
  const [checked, setChecked] = useState(false)

  useEffect(() => {
    // the mail's link opens this page; a link followed from this very page only changes the hash
    const followLink = () => {
      const link = linkOfHash()
      if (link?.kind === 'reset') {
        setResetToken(link.token)
        setProblems([])
        setMode('reset')
      } else if (link?.kind === 'verify') {
        setProblems([])
        callApi(advertisers.verify, { body: { token: link.token } })
          .then(() => setDone(t`Your e-mail address is confirmed. You can sign in now.`))
          .catch((error: unknown) => setProblems(problemsOfError(error)))
      }
    }
    followLink()
    window.addEventListener('hashchange', followLink)
    ensureSession()
      .catch(() => null)
      .finally(() => setChecked(true))
    return () => window.removeEventListener('hashchange', followLink)
  }, [t])

  const split = splitProblems(problems, FIELDS, BY_CODE)
  const fieldText = (field: Field) => {
    const problem = split.fields[field]
    return problem ? problemText(i18n, problem) : null
  }
  const set = (field: Field) => (e: { target: { value: string } }) => {
    setForm({ ...form, [field]: e.target.value })
    if (split.fields[field]) setProblems(problems.filter((p) => p !== split.fields[field]))
  }
  const switchTo = (next: Mode) => {
    setMode(next)
    setProblems([])
    setDone(null)
  }

  const run = async (work: () => Promise<void>) => {
    setBusy(true)
    setProblems([])
    try {
      await work()
    } catch (error) {
      setProblems(problemsOfError(error))
    } finally {
      setBusy(false)
    }
  }

  const submit = (e: FormEvent) => {
    e.preventDefault()
    if (mode === 'sign-up') {
      const body = { ...form, locale: isLocale(i18n.locale) ? i18n.locale : 'en' }
      const invalid = Object.entries(fieldErrors(SignUpRequestSchema, body)).flatMap(([path, p]) =>
        p ? [{ code: p.code, params: { ...p.params, field: path } }] : [],
      )
      if (invalid.length > 0) return setProblems(invalid)
      void run(async () => {
        await callApi(advertisers.signUp, { body })
        setDone(
          t`We sent a link to ${form.email}. Open it to confirm your e-mail address, then sign in.`,
        )
        setForm({ ...form, password: '' })
        setMode('sign-in')
      })
    } else if (mode === 'sign-in') {
      void run(async () => {
        await signIn(form.email, form.password)
        setForm({ ...form, password: '' })
        // back to the page that asked for a session, else to the campaigns
        const next = safeNext(search.next)
        if (next) await navigate({ href: next })
        else await navigate({ to: '/campaigns' })
      })
    } else if (mode === 'forgot') {
      void run(async () => {
        await callApi(advertisers.passwordReset, { body: { email: form.email } })
        setDone(t`If ${form.email} has an account, we sent it a link to choose a new password.`)
        setMode('sign-in')
      })
    } else if (mode === 'reset' && resetToken) {
      const body = { token: resetToken, password: form.password }
      const invalid = fieldErrors(PasswordResetConfirmSchema, body).password
      if (invalid)
        return setProblems([{ ...invalid, params: { ...invalid.params, field: 'password' } }])
      void run(async () => {
        await apiRequest(
          (pathOf as (e: Endpoint) => string)(advertisers.passwordResetConfirm),
          v.null(),
          { method: 'POST', body },
        )
        setResetToken(null)
        setForm({ ...form, password: '' })
        setDone(t`Your new password is saved. Sign in with it.`)
        setMode('sign-in')
      })
    }
  }

  const notVerified = mode === 'sign-in' && problems.some((p) => p.code === 'email_not_verified')
  const resend = () =>
    void run(async () => {
      await callApi(advertiserDoor.resendVerification, { body: { email: form.email } })
      setDone(
        t`If ${form.email} has an account waiting for its confirmation, we sent it a new link. The one before no longer works.`,
      )
    })

  if (session.account) {
    return (
      <main className="page adv" id="main">
        <h1 className="page__title">
          <Trans>Your account</Trans>
        </h1>
        <section className="card">
          <p>
            <Trans>
              Signed in as {session.account.name} ({session.account.email}),{' '}
              {session.account.company}.
            </Trans>
          </p>
          <div className="adv__actions">
            <Link to="/campaigns" className="btn btn--orange btn--medium">
              <span className="btn__label">
                <Trans>Your campaigns</Trans>
              </span>
            </Link>
            <Button kind={busy ? 'loading' : 'white'} onClick={() => void run(signOut)}>
              <Trans>Sign out</Trans>
            </Button>
          </div>
        </section>
        {problems.length > 0 ? <ProblemList problems={problems} /> : null}
        <TeamCard />
        <BillingForm />
        <InvoiceList />
      </main>
    )
  }

  const titles: Record<Mode, string> = {
    'sign-in': t`Sign in`,
    'sign-up': t`Create an advertiser account`,
    forgot: t`Forgotten password`,
    reset: t`Choose a new password`,
  }
  const submitLabels: Record<Mode, string> = {
    'sign-in': t`Sign in`,
    'sign-up': t`Create account`,
    forgot: t`Send me a link`,
    reset: t`Save the new password`,
  }
  return (
    <main className="page adv adv--narrow" id="main">
      <h1 className="page__title">{titles[mode]}</h1>
      <p className="page__lead">
        <Trans>
          Advertisers buy plays of their own ad in the billboards' time that no shout holds.
        </Trans>
      </p>
      {done ? <Notice tone="success">{done}</Notice> : null}
      <AcceptInvite />
      {split.rest.length > 0 ? (
        <Notice tone="error">{split.rest.map((p) => problemText(i18n, p)).join(' ')}</Notice>
      ) : null}
      {notVerified ? (
        <p>
          <Button kind={busy ? 'loading' : 'white'} onClick={resend}>
            <Trans>Send the link again</Trans>
          </Button>
        </p>
      ) : null}
      <form className="card" onSubmit={submit} noValidate aria-busy={!checked || undefined}>
        {mode !== 'reset' ? (
          <TextField
            label={t`E-mail address`}
            type="email"
            autoComplete="email"
            value={form.email}
            error={fieldText('email')}
            onChange={set('email')}
          />
        ) : null}
        {mode === 'sign-up' ? (
          <>
            <TextField
              label={t`Your name`}
              autoComplete="name"
              value={form.name}
              error={fieldText('name')}
              onChange={set('name')}
            />
            <TextField
              label={t`Company`}
              autoComplete="organization"
              value={form.company}
              error={fieldText('company')}
              onChange={set('company')}
            />
          </>
        ) : null}
        {mode !== 'forgot' ? (
          <TextField
            label={mode === 'reset' ? t`New password` : t`Password`}
            type="password"
            autoComplete={mode === 'sign-in' ? 'current-password' : 'new-password'}
            value={form.password}
            error={fieldText('password')}
            hint={
              mode === 'sign-in'
                ? undefined
                : t`A long password of several unrelated words is strong and easy to remember.`
            }
            onChange={set('password')}
          />
        ) : null}
        {mode === 'sign-up' || mode === 'reset' ? (
          <PasswordStrengthMeter
            password={form.password}
            email={form.email}
            name={form.name}
            company={form.company}
          />
        ) : null}
        <Button kind={busy ? 'loading' : 'orange'} size="large" htmlType="submit">
          {submitLabels[mode]}
        </Button>
      </form>
      <nav className="adv__switch" aria-label={t`Account`}>
        {mode !== 'sign-in' ? (
          <Button kind="link" onClick={() => switchTo('sign-in')}>
            <Trans>I have an account: sign in</Trans>
          </Button>
        ) : null}
        {mode !== 'sign-up' ? (
          <Button kind="link" onClick={() => switchTo('sign-up')}>
            <Trans>New here? Create an account</Trans>
          </Button>
        ) : null}
        {mode === 'sign-in' ? (
          <Button kind="link" onClick={() => switchTo('forgot')}>
            <Trans>Forgot your password?</Trans>
          </Button>
        ) : null}
      </nav>
    </main>
  )
}
