import { Trans, useLingui } from '@lingui/react/macro'
import { useRouter, useSearch } from '@tanstack/react-router'
import { type FormEvent, useState } from 'react'
import { ops } from '../../contract/ops'
import { opsMessages, PASSWORD_MAX_LENGTH, PASSWORD_MIN_LENGTH } from '../../domain/ops'
import { ApiError } from '../lib/api'
import { TextField } from '../ui/fields'
import { callNoContent } from './api'
import { signInHref } from './enter'
import { Notice, usePageTitle } from './ops-frame'

type Errors = { password?: string; confirm?: string; form?: string }

/**
 * issue 10: `/ops/set-password?token=…`, the one-time link `npm run operator` prints (24 h, once).
 * The password: at least 12 characters (src/domain/ops.ts); then on to sign-in.
 */
export function SetPasswordPage() {
  const raw: Record<string, unknown> = useSearch({ strict: false })
  const token = typeof raw.token === 'string' ? raw.token : undefined
  const { t } = useLingui()
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
    const length = [...password].length
    if (length < PASSWORD_MIN_LENGTH) {
      found.password = t`Use at least ${PASSWORD_MIN_LENGTH} characters.`
    } else if (length > PASSWORD_MAX_LENGTH) {
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
      const said = error instanceof ApiError ? error.errors : []
      if (error instanceof ApiError && error.statusCode === 400) {
        if (said.includes(opsMessages.passwordTooShort)) {
          setErrors({ password: t`Use at least ${PASSWORD_MIN_LENGTH} characters.` })
        } else if (said.includes(opsMessages.passwordTooLong)) {
          setErrors({ password: t`Use at most ${PASSWORD_MAX_LENGTH} characters.` })
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
