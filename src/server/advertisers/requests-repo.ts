import type { Locale } from '../../domain/locale.ts'
import type { Queryable } from '../platform/db/client.ts'
import { json, sql } from '../platform/db/sql.ts'

// The SQL of advertiser_requests (migrations 0037, 0041): sign-ups, password resets and requests for
// the verification link again, answered already,
// waiting for the `advertiser-requests` job (account-requests.ts). A row is claimed under a lease,
// so one an instance dropped (a crash) is done by another once the lease has passed; it is deleted
// in the transaction of the work it asked for.

export type SignUpDetails = {
  name: string
  company: string
  locale: Locale
  /** argon2id, hashed before the answer whatever the e-mail (the password itself is never kept) */
  passwordHash: string
}

export type AccountRequest =
  | { requestId: string; kind: 'sign_up'; email: string; details: SignUpDetails }
  | { requestId: string; kind: 'reset'; email: string; details: Record<string, never> }
  /** a new verification link for an account not verified yet (migration 0041) */
  | { requestId: string; kind: 'resend'; email: string; details: Record<string, never> }

const iso = (epochMs: number) => new Date(epochMs).toISOString()

export async function insertRequest(
  db: Queryable,
  request: AccountRequest,
  nowMs: number,
): Promise<void> {
  await db.query(sql`
    insert into advertiser_requests (request_id, kind, email, details, created_at)
    values (${request.requestId}, ${request.kind}, ${request.email}, ${json(request.details)}::jsonb,
      ${iso(nowMs)}::timestamptz)`)
}

/** The oldest requests no instance holds, claimed until `nowMs + leaseMs`. */
export function claimRequests(
  db: Queryable,
  nowMs: number,
  leaseMs: number,
  limit: number,
): Promise<AccountRequest[]> {
  return db.query(sql<AccountRequest>`
    update advertiser_requests r set claimed_until = ${iso(nowMs + leaseMs)}::timestamptz
    from (select request_id from advertiser_requests
      where claimed_until is null or claimed_until <= ${iso(nowMs)}::timestamptz
      order by created_at limit ${limit} for update skip locked) due
    where r.request_id = due.request_id
    returning r.request_id as "requestId", r.kind, r.email, r.details`)
}

/**
 * Deletes the request; false when it was gone already (another instance, whose lease began when
 * this one's ran out, did its work: this one must not do it again).
 */
export async function deleteRequest(db: Queryable, requestId: string): Promise<boolean> {
  const rows = await db.query(sql`
    delete from advertiser_requests where request_id = ${requestId} returning 1 as x`)
  return rows.length > 0
}
