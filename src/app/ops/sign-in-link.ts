// The sign-in page's address and search, on their own: the pages and the failure handler link to
// sign-in, and enter.ts (which imports the pages table) must not be what they import.

export type SignInSearch = {
  /** the console page to go back to once signed in */
  redirect?: string
  /** the session had ended (a call answered 401) */
  ended?: boolean
  signedOut?: boolean
  passwordSet?: boolean
}

/** The sign-in page's address with what it should say and where it leads back to. */
export function signInHref(search: SignInSearch): string {
  const query = new URLSearchParams()
  if (search.redirect) query.set('redirect', search.redirect)
  for (const flag of ['ended', 'signedOut', 'passwordSet'] as const) {
    if (search[flag]) query.set(flag, '1')
  }
  const text = query.toString()
  return text ? `/ops/sign-in?${text}` : '/ops/sign-in'
}

/** The sign-in page's search, read from the address (whatever a link put there). */
export function readSignInSearch(raw: Record<string, unknown>): SignInSearch {
  const flag = (value: unknown) =>
    value === 1 || value === '1' || value === true ? true : undefined
  return {
    redirect: typeof raw.redirect === 'string' ? raw.redirect : undefined,
    ended: flag(raw.ended),
    signedOut: flag(raw.signedOut),
    passwordSet: flag(raw.passwordSet),
  }
}
