import type { MemberRole } from '../../../domain/team.ts'
import type { Queryable } from '../../platform/db/client.ts'
import { iso, sql } from '../../platform/db/sql.ts'
import { ACCOUNTS, CAMPAIGN_CHANGES, INVITES } from '../columns.ts'

// The SQL of teams (migration 0046_teams): the logins of a team (advertiser_accounts' team_id and
// role), the owners' invitations (hashed, once), and who made each change of a campaign.

export type MemberRow = { memberId: string; email: string; name: string; role: MemberRole }

/** The team's logins: its founding account first, then the others by e-mail. */
export async function membersOf(db: Queryable, teamId: string): Promise<MemberRow[]> {
  const rows = await db.query(sql<Omit<MemberRow, 'memberId'> & { accountId: string }>`
    select ${ACCOUNTS.select({ fields: ['accountId', 'email', 'name', 'role'] })}
    from advertiser_accounts
    where account_id = ${teamId} or team_id = ${teamId}
    order by (account_id = ${teamId}) desc, lower(email)`)
  return rows.map(({ accountId, email, name, role }) => ({
    memberId: accountId,
    email,
    name,
    role,
  }))
}

/** Locks the team's founding row: changes of members and roles happen one after another. */
export async function lockTeam(db: Queryable, teamId: string): Promise<void> {
  await db.query(sql`select 1 from advertiser_accounts where account_id = ${teamId} for update`)
}

export function openInvites(
  db: Queryable,
  teamId: string,
  nowMs: number,
): Promise<{ email: string; role: MemberRole; expiresAtEpochMs: number }[]> {
  return db.query(sql<{ email: string; role: MemberRole; expiresAtEpochMs: number }>`
    select ${INVITES.select({ fields: ['email', 'role', 'expiresAtEpochMs'] })}
    from advertiser_invites
    where team_id = ${teamId} and used_at is null and expires_at > ${iso(nowMs)}::timestamptz
    order by created_at`)
}

export async function insertInvite(
  db: Queryable,
  invite: {
    tokenHash: string
    teamId: string
    email: string
    role: MemberRole
    invitedBy: string
    expiresAtMs: number
  },
  nowMs: number,
): Promise<void> {
  await db.query(sql`
    insert into advertiser_invites (token_hash, team_id, email, role, invited_by, created_at,
      expires_at)
    values (${invite.tokenHash}, ${invite.teamId}, ${invite.email}, ${invite.role},
      ${invite.invitedBy}, ${iso(nowMs)}::timestamptz, ${iso(invite.expiresAtMs)}::timestamptz)`)
}

/** Uses an invitation's link once, within its life: its team, e-mail and role, or null. */
export async function useInvite(
  db: Queryable,
  tokenHash: string,
  nowMs: number,
): Promise<{ teamId: string; email: string; role: MemberRole } | null> {
  const [row] = await db.query(sql<{ teamId: string; email: string; role: MemberRole }>`
    update advertiser_invites set used_at = ${iso(nowMs)}::timestamptz
    where token_hash = ${tokenHash} and used_at is null
      and expires_at > ${iso(nowMs)}::timestamptz
    returning ${INVITES.select({ fields: ['teamId', 'email', 'role'] })}`)
  return row ?? null
}

/** A new login of the team, verified (the invitation's link proved its e-mail). */
export async function insertMember(
  db: Queryable,
  member: {
    accountId: string
    teamId: string
    email: string
    name: string
    role: MemberRole
    passwordHash: string
  },
  nowMs: number,
): Promise<boolean> {
  const at = sql`${iso(nowMs)}::timestamptz`
  const rows = await db.query(sql`
    insert into advertiser_accounts (account_id, email, name, company, locale, password_hash,
      verified_at, created_at, team_id, role)
    select ${member.accountId}, ${member.email}, ${member.name}, t.company, t.locale,
      ${member.passwordHash}, ${at}, ${at}, ${member.teamId}, ${member.role}
    from advertiser_accounts t where t.account_id = ${member.teamId}
    on conflict do nothing
    returning account_id`)
  return rows.length > 0
}

export async function setRole(
  db: Queryable,
  teamId: string,
  memberId: string,
  role: MemberRole,
): Promise<void> {
  await db.query(sql`
    update advertiser_accounts set role = ${role}
    where account_id = ${memberId} and coalesce(team_id, account_id) = ${teamId}`)
}

/** Deletes a login that joined the team (never its founding account): its sessions go with it. */
export async function deleteMember(db: Queryable, teamId: string, memberId: string): Promise<void> {
  await db.query(sql`
    delete from advertiser_accounts where account_id = ${memberId} and team_id = ${teamId}`)
}

/** Who made a change of a campaign: the login, by id and e-mail, and the call's name. */
export async function recordChange(
  db: Queryable,
  change: { campaignId: string; memberId: string; email: string; change: string },
  nowMs: number,
): Promise<void> {
  await db.query(sql`
    insert into campaign_changes (campaign_id, at, member_id, member_email, change)
    select ${change.campaignId}, ${iso(nowMs)}::timestamptz, ${change.memberId}, ${change.email},
      ${change.change}
    where exists (select 1 from campaigns where campaign_id = ${change.campaignId})`)
}

export type ChangeRow = { atEpochMs: number; memberEmail: string; change: string }

export function changesOf(db: Queryable, campaignId: string): Promise<ChangeRow[]> {
  return db.query(sql<ChangeRow>`
    select ${CAMPAIGN_CHANGES.select({ fields: ['atEpochMs', 'memberEmail', 'change'] })}
    from campaign_changes where campaign_id = ${campaignId} order by id`)
}
