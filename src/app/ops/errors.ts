import { useLingui } from '@lingui/react/macro'
import { useRouter } from '@tanstack/react-router'
import { useCallback } from 'react'
import { ApiError } from '../lib/api'
import { problemText } from '../lib/problem-text'
import { signInHref } from './sign-in-link'

/**
 * What a console page says when a call fails (clear messages for 401 and 403). A 401 (the
 * session ended: 12 h idle, signed out elsewhere) goes to sign-in, which comes back here after.
 */
export function useOpsFailure(): (error: unknown) => string {
  const { t, i18n } = useLingui()
  const router = useRouter()
  return useCallback(
    (error: unknown) => {
      if (!(error instanceof ApiError)) {
        return t`The shop's server could not be reached. Check the connection and try again.`
      }
      if (error.statusCode === 401) {
        const { href } = router.state.location
        void router.navigate({ href: signInHref({ redirect: href, ended: true }) })
        return t`Your session has ended. Sign in again.`
      }
      if (error.statusCode === 403) {
        const refusal = problemText(i18n, { code: 'role_forbidden' })
        return `${refusal}. ${t`Ask an administrator if you need it.`}`
      }
      if (error.statusCode >= 500) return t`Something went wrong on the server. Try again.`
      // the server's problems (the order's state, a reason that is missing), translated
      const said = error.problems.map((p, i) => problemText(i18n, p, error.errors[i])).join(' ')
      return said || t`The request failed (${error.statusCode}).`
    },
    [t, i18n, router],
  )
}
