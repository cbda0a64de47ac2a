// Where an advertiser goes to sign in, and after signing in (the `next` of /account's address).

import { splitLocalePath, withLocalePrefix } from '../../../domain/locale'

/** Where signing in leads back to: an advertiser page of this site only. */
export function safeNext(next: unknown): string | null {
  if (typeof next !== 'string') return null
  return /^\/((fr|de)\/)?(campaigns|proposal)(\/[\w-]*)*\/?$/.test(next) ? next : null
}

/**
 * Where an ended session sends the browser from the page at `pathname` (spec §7): /account in the
 * page's own language (/fr/account, /de/account), coming back to the page after signing in when it
 * is an advertiser page. `next` is written without the prefix: the router adds the language's.
 */
export function signInAddress(pathname: string): string {
  const { locale, path } = splitLocalePath(pathname)
  const account = withLocalePrefix('/account', locale)
  const next = safeNext(path)
  return next ? `${account}?next=${encodeURIComponent(next)}` : account
}
