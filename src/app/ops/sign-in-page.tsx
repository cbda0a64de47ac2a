import { Trans, useLingui } from '@lingui/react/macro'
import { useRouter, useSearch } from '@tanstack/react-router'
import { type FormEvent, useState } from 'react'
import { ops } from '../../contract/ops'
import { isLocale } from '../../domain/locale'
import { ApiError } from '../lib/api'
import { problemText } from '../lib/problem-text'
import { TextField } from '../ui/text-field'
import { callNoContent } from './api'
import { Notice, usePageTitle } from './ops-frame'
import { safeReturnPath } from './session'
import { readSignInSearch } from './sign-in-link'

type Errors = { email?: string; password?: string; form?: string }

/** `/ops/sign-in`. A wrong e-mail and a wrong password get the same answer (api-v1). */
export function SignInPage() {
  const search = readSignInSearch(useSearch({ strict: false }))
  const { t, i18n } = useLingui()
  const router = useRouter()
  const [email, setEmail] = useState('')
  const [password, setPassword] = useState('')
  const [errors, setErrors] = useState<Errors>({})
  const [busy, setBusy] = useState(false)
  usePageTitle(t`Sign in`)

  const submit = async (event: FormEvent) => {
    event.preventDefault()
    const found: Errors = {}
    if (!email.trim()) found.email = t`Enter your e-mail address.`
    if (!password) found.password = t`Enter your password.`
    setErrors(found)
    if (found.email || found.password) return
    setBusy(true)
    try {
      await callNoContent(ops.signIn, {
        email: email.trim(),
        password,
        ...(isLocale(i18n.locale) ? { locale: i18n.locale } : {}),
      })
      await router.navigate({ href: safeReturnPath(search.redirect) ?? '/ops', replace: true })
    } catch (error) {
      setBusy(false)
      if (error instanceof ApiError && error.statusCode === 401) {
        setErrors({ password: problemText(i18n, { code: 'wrong_credentials' }) })
      } else if (error instanceof ApiError && error.statusCode === 429) {
        setErrors({
          form: t`Too many sign-in attempts for this account or this connection. Wait 15 minutes and try again.`,
        })
      } else if (error instanceof ApiError && error.statusCode === 400) {
        setErrors({ email: t`Enter a valid e-mail address.` })
      } else {
        setErrors({
          form: t`Signing in failed: the shop's server could not be reached. Try again.`,
        })
      }
    }
  }

  return (
    <main className="ops-door">
      <form className="ops-door__card" onSubmit={submit} noValidate>
        <p className="ops-door__brand">
          <Trans>Shouts operations</Trans>
        </p>
        <h1 className="ops-page__title">
          <Trans>Sign in</Trans>
        </h1>
        {search.ended ? (
          <Notice>
            <Trans>Your session has ended. Sign in again to go on.</Trans>
          </Notice>
        ) : null}
        {search.signedOut ? (
          <Notice tone="success">
            <Trans>You are signed out.</Trans>
          </Notice>
        ) : null}
        {search.passwordSet ? (
          <Notice tone="success">
            <Trans>Your password is set. Sign in with it.</Trans>
          </Notice>
        ) : null}
        {errors.form ? <Notice tone="error">{errors.form}</Notice> : null}
        <TextField
          label={t`E-mail`}
          type="email"
          name="email"
          autoComplete="username"
          value={email}
          onChange={(e) => setEmail(e.target.value)}
          error={errors.email}
          required
        />
        <TextField
          label={t`Password`}
          type="password"
          name="password"
          autoComplete="current-password"
          value={password}
          onChange={(e) => setPassword(e.target.value)}
          error={errors.password}
          required
        />
        <button type="submit" className="ops-button" disabled={busy} aria-busy={busy}>
          {busy ? <Trans>Signing in…</Trans> : <Trans>Sign in</Trans>}
        </button>
      </form>
    </main>
  )
}
