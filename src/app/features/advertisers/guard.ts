// Where an advertiser goes after signing in (the `next` of /account's address).

/** Where signing in leads back to: an advertiser page of this site only. */
export function safeNext(next: unknown): string | null {
  if (typeof next !== 'string') return null
  return /^\/((fr|de)\/)?(campaigns|proposal)(\/[\w-]*)*\/?$/.test(next) ? next : null
}
