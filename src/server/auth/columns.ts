import { columnMap } from '../platform/db/columns.ts'
import type { AuditRow, Operator } from './repo.ts'

// The operators' tables (migration 0007) as repo.ts's rows name their fields: the select lists
// are written from these declarations instead of each query naming its aliases again.

export const OPERATORS = columnMap<Operator & { passwordHash: string | null }>('operators', {
  id: 'id',
  email: 'email',
  role: 'role',
  passwordHash: 'password_hash',
})

/** A one-time set-password link, by its hash. */
export const OPERATOR_TOKENS = columnMap<{ tokenHash: string; operatorId: string }>(
  'operator_tokens',
  { tokenHash: 'token_hash', operatorId: 'operator_id' },
)

/** A session, by its id's hash. */
export const OPERATOR_SESSIONS = columnMap<{
  sessionIdHash: string
  operatorId: string
  lastSeenEpochMs: number
}>('operator_sessions', {
  sessionIdHash: 'id_hash',
  operatorId: 'operator_id',
  lastSeenEpochMs: { column: 'last_seen_at', epochMs: true },
})

export const AUDIT_LOG = columnMap<AuditRow>('audit_log', {
  id: 'id',
  atEpochMs: { column: 'at', epochMs: true },
  operatorEmail: 'operator_email',
  action: 'action',
  orderGuid: 'order_guid',
  detail: { column: 'detail', json: true },
})
