import type { Env } from '../platform/env.ts'

/**
 * Who push services may contact (RFC 8292 `sub`): VAPID_SUBJECT, else the shop's https address, else
 * the address mails come from.
 */
export function vapidSubject(env: Env): string {
  if (env.VAPID_SUBJECT) return env.VAPID_SUBJECT
  if (env.PUBLIC_BASE_URL?.startsWith('https://')) return new URL(env.PUBLIC_BASE_URL).origin
  const address = env.MAIL_FROM.match(/<([^<>]+)>\s*$/)?.[1] ?? env.MAIL_FROM
  return `mailto:${address.trim()}`
}
