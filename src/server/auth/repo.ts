import type { OperatorRole } from '../../domain/ops.ts'
import type { Queryable } from '../platform/db/client.ts'
import { at, json, sql } from '../platform/db/sql.ts'
import { AUDIT_LOG, OPERATOR_SESSIONS, OPERATOR_TOKENS, OPERATORS } from './columns.ts'

// The tables of operators and their secrets (migration 0007): operators, operator_tokens (one-time
// set-password links, hashed), operator_sessions (hashed ids), and the audit_log every ops module
// writes through `recordAudit`. Times the shop's rules compare (expiry, idle) are written from the
// server's clock (`now`), so tests can move it.

export type Operator = { id: string; email: string; role: OperatorRole }

export async function operatorByEmail(
  db: Queryable,
  email: string,
): Promise<(Operator & { passwordHash: string | null }) | null> {
  const [row] = await db.query(sql<Operator & { passwordHash: string | null }>`
    select ${OPERATORS.select()}
    from operators where lower(email) = lower(${email})`)
  return row ?? null
}

/** The console's language at the operator's sign-in: the one their mails are written in. */
export async function setOperatorLocale(db: Queryable, id: string, locale: string): Promise<void> {
  await db.query(
    sql`update operators set locale = ${locale} where id = ${id} and locale <> ${locale}`,
  )
}

/** The admins who can sign in (their password is set), with their mails' language. */
export async function adminRecipients(db: Queryable): Promise<{ email: string; locale: string }[]> {
  return db.query(sql<{ email: string; locale: string }>`
    select email, locale from operators
    where role = 'admin' and password_hash is not null order by email`)
}

/** Creates an operator; null when the e-mail is taken (case-insensitively). */
export async function insertOperator(
  db: Queryable,
  operator: Operator,
  nowMs: number,
): Promise<Operator | null> {
  const [row] = await db.query(sql<Operator>`
    insert into operators (id, email, role, created_at)
    values (${operator.id}, ${operator.email}, ${operator.role}, ${at(nowMs)})
    on conflict do nothing
    returning id, email, role`)
  return row ?? null
}

/** A new one-time link for the operator; the operator's older links stop working. */
export async function replaceSetPasswordToken(
  db: Queryable,
  operatorId: string,
  tokenHash: string,
  nowMs: number,
  expiresAtMs: number,
): Promise<void> {
  await db.query(sql`
    with revoked as (
      update operator_tokens set revoked_at = ${at(nowMs)}
      where operator_id = ${operatorId} and used_at is null and revoked_at is null
    )
    insert into operator_tokens (token_hash, operator_id, created_at, expires_at)
    values (${tokenHash}, ${operatorId}, ${at(nowMs)},
      ${at(expiresAtMs)})`)
}

/**
 * Uses a one-time link: marks it used and answers its operator, in one statement, only when it is
 * unused, not revoked and not expired (so two concurrent uses cannot both succeed).
 */
/** The operator a live (unused, unrevoked, unexpired) link belongs to, without using it up. */
export async function setPasswordTokenOperator(
  db: Queryable,
  tokenHash: string,
  nowMs: number,
): Promise<string | null> {
  const [row] = await db.query(sql<{ operatorId: string }>`
    select ${OPERATOR_TOKENS.select({ fields: ['operatorId'] })} from operator_tokens
    where token_hash = ${tokenHash} and used_at is null and revoked_at is null
      and expires_at > ${at(nowMs)}`)
  return row?.operatorId ?? null
}

export async function useSetPasswordToken(
  db: Queryable,
  tokenHash: string,
  nowMs: number,
): Promise<Operator | null> {
  const [row] = await db.query(sql<Operator>`
    with t as (
      update operator_tokens set used_at = ${at(nowMs)}
      where token_hash = ${tokenHash} and used_at is null and revoked_at is null
        and expires_at > ${at(nowMs)}
      returning operator_id
    )
    select o.id, o.email, o.role from operators o join t on t.operator_id = o.id`)
  return row ?? null
}

/** Sets the password and ends every session the operator had (a reset signs everyone out). */
export async function setPasswordHash(
  db: Queryable,
  operatorId: string,
  passwordHash: string,
  nowMs: number,
): Promise<void> {
  await db.query(sql`
    update operators set password_hash = ${passwordHash},
      password_set_at = ${at(nowMs)}
    where id = ${operatorId}`)
  await db.query(sql`
    update operator_sessions set ended_at = ${at(nowMs)}
    where operator_id = ${operatorId} and ended_at is null`)
}

export async function insertSession(
  db: Queryable,
  idHash: string,
  operatorId: string,
  nowMs: number,
): Promise<void> {
  await db.query(sql`
    insert into operator_sessions (id_hash, operator_id, created_at, last_seen_at)
    values (${idHash}, ${operatorId}, ${at(nowMs)}, ${at(nowMs)})`)
}

export type SessionRow = Operator & { lastSeenEpochMs: number; sessionIdHash: string }

/** A session not ended, with its operator (the idle rule is the caller's: domain/ops.ts). */
export async function openSession(db: Queryable, idHash: string): Promise<SessionRow | null> {
  const [row] = await db.query(sql<SessionRow>`
    select ${OPERATORS.select({ from: 'o', fields: ['id', 'email', 'role'] })},
      ${OPERATOR_SESSIONS.select({ from: 's', fields: ['sessionIdHash', 'lastSeenEpochMs'] })}
    from operator_sessions s join operators o on o.id = s.operator_id
    where s.id_hash = ${idHash} and s.ended_at is null`)
  return row ? { ...row, lastSeenEpochMs: Number(row.lastSeenEpochMs) } : null
}

export async function touchSession(db: Queryable, idHash: string, nowMs: number): Promise<void> {
  await db.query(sql`
    update operator_sessions set last_seen_at = ${at(nowMs)}
    where id_hash = ${idHash} and ended_at is null`)
}

/** Ends a session; answers its operator when it was open. */
export async function endSession(
  db: Queryable,
  idHash: string,
  nowMs: number,
): Promise<Operator | null> {
  const [row] = await db.query(sql<Operator>`
    with s as (
      update operator_sessions set ended_at = ${at(nowMs)}
      where id_hash = ${idHash} and ended_at is null
      returning operator_id
    )
    select o.id, o.email, o.role from operators o join s on s.operator_id = o.id`)
  return row ?? null
}

// ---------- the audit log ----------

export type AuditRecord = {
  /** Who acted: an operator, or null (a failed sign-in with an unknown e-mail, the system). */
  operator: Pick<Operator, 'id' | 'email'> | null
  /** sign_in, sign_in_failed, sign_out, set_password, approve, cancel, auto_cancel, ... */
  action: string
  orderGuid?: string | null
  /** Anything that explains the action (never a secret: no password, token or session id). */
  detail?: Record<string, unknown>
}

/** Writes one audit row; pass the transaction that makes the change, so both or neither happen. */
export async function recordAudit(db: Queryable, record: AuditRecord, nowMs: number) {
  await db.query(sql`
    insert into audit_log (operator_id, operator_email, action, order_guid, detail, at)
    values (${record.operator?.id ?? null}, ${record.operator?.email ?? null}, ${record.action},
      ${record.orderGuid ?? null}, ${json(record.detail ?? {})}::jsonb, ${at(nowMs)})`)
}

export type AuditRow = {
  id: number
  atEpochMs: number
  operatorEmail: string | null
  action: string
  orderGuid: string | null
  detail: Record<string, unknown>
}

/** Which entries: a page (`limit`, older than `before`), of an order, an operator, an action. */
export type AuditFilter = {
  limit: number
  before?: number | undefined
  orderGuid?: string | undefined
  operator?: string | undefined
  action?: string | undefined
}

export async function auditEntries(db: Queryable, query: AuditFilter): Promise<AuditRow[]> {
  const before = query.before === undefined ? sql`true` : sql`id < ${query.before}::bigint`
  const order = query.orderGuid === undefined ? sql`true` : sql`order_guid = ${query.orderGuid}`
  const who =
    query.operator === undefined || query.operator === ''
      ? sql`true`
      : sql`lower(operator_email) = lower(${query.operator})`
  const what = query.action === undefined ? sql`true` : sql`action = ${query.action}`
  const rows = await db.query(sql<AuditRow>`
    select ${AUDIT_LOG.select()}
    from audit_log where ${before} and ${order} and ${who} and ${what}
    order by id desc limit ${query.limit}::int`)
  return rows.map((r) => ({ ...r, id: Number(r.id), atEpochMs: Math.round(Number(r.atEpochMs)) }))
}
