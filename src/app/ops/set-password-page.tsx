import { Trans, useLingui } from '@lingui/react/macro'
import { useRouter, useSearch } from '@tanstack/react-router'
import { type FormEvent, useState } from 'react'
import { ops } from '../../contract/ops/orders'
import { PASSWORD_MAX_LENGTH, PASSWORD_MIN_LENGTH, passwordProblem } from '../../domain/ops'
import { ApiError } from '../lib/api'
import { problemText } from '../lib/problem-text'
import { TextField } from '../ui/text-field'
import { callNoContent } from './api'
import { Notice, usePageTitle } from './ops-frame'
import { signInHref } from './sign-in-link'

type Errors = { password?: string; confirm?: string; form?: string }

/**
 * `/ops/set-password?token=…`, the one-time link `npm run operator` prints (24 h, once).
 * The password: the length passwordProblem allows (src/domain/ops.ts); then on to sign-in.
 */
export function SetPasswordPage() {
  const raw: Record<string, unknown> = useSearch({ strict: false })
  const token = typeof raw.token === 'string' ? raw.token : undefined
  const { t, i18n } = useLingui()
  const router = useRouter()
  const [password, setPassword] = useState('')
  const [confirm, setConfirm] = useState('')
  const [errors, setErrors] = useState<Errors>({})
  const [busy, setBusy] = useState(false)
  usePageTitle(t`Set your password`)
  const linkInvalid = t`This link is not valid any more. Ask an administrator for a new one.`

  const submit = async (event: FormEvent) => {
    event.preventDefault()
    const found: Errors = {}
    const problem = passwordProblem(password)
    if (problem?.code === 'password_weak') {
      found.password = t`Use at least ${PASSWORD_MIN_LENGTH} characters.`
    } else if (problem?.code === 'password_too_long') {
      found.password = t`Use at most ${PASSWORD_MAX_LENGTH} characters.`
    } else if (confirm !== password) {
      found.confirm = t`The two passwords differ.`
    }
    setErrors(found)
    if (found.password || found.confirm) return
    if (!token) {
      setErrors({ form: linkInvalid })
      return
    }
    setBusy(true)
    try {
      await callNoContent(ops.setPassword, { token, password })
      await router.navigate({ href: signInHref({ passwordSet: true }), replace: true })
    } catch (error) {
      setBusy(false)
      if (error instanceof ApiError && error.statusCode === 400) {
        // By the code the server sends, never by its English. This page checks the password with
        // the server's own rule (passwordProblem) before sending, so a password problem means the
        // server's bounds differ from this page's: its problem says which. Any other 400
        // (link_invalid, or a malformed token) is the link's.
        const weak = error.problems.find(
          (p) => p.code === 'password_weak' || p.code === 'password_too_long',
        )
        if (weak) {
          setErrors({ password: problemText(i18n, weak) })
        } else {
          setErrors({ form: linkInvalid })
        }
      } else {
        setErrors({
          form: t`The password could not be saved: the shop's server could not be reached. Try again.`,
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
          <Trans>Set your password</Trans>
        </h1>
        {!token ? <Notice tone="error">{linkInvalid}</Notice> : null}
        {errors.form ? <Notice tone="error">{errors.form}</Notice> : null}
        <TextField
          label={t`New password`}
          type="password"
          name="new-password"
          autoComplete="new-password"
          value={password}
          onChange={(e) => setPassword(e.target.value)}
          error={errors.password}
          hint={t`At least ${PASSWORD_MIN_LENGTH} characters.`}
          required
        />
        <TextField
          label={t`The same password again`}
          type="password"
          name="confirm-password"
          autoComplete="new-password"
          value={confirm}
          onChange={(e) => setConfirm(e.target.value)}
          error={errors.confirm}
          required
        />
        <button type="submit" className="ops-button" disabled={busy} aria-busy={busy}>
          <Trans>Set password</Trans>
        </button>
      </form>
    </main>
  )
}
