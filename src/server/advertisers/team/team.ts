import { randomUUID } from 'node:crypto'
import type { Team } from '../../../contract/advertisers-team.ts'
import { INVITE_LINK_TTL_MS, keepsAnOwner, type MemberRole } from '../../../domain/team.ts'
import type { PasswordWork } from '../../auth/passwords.ts'
import type { MailService } from '../../mail/service.ts'
import type { Database } from '../../platform/db/client.ts'
import type { Logger } from '../../platform/log.ts'
import { err, ok, type Result } from '../../platform/result.ts'
import { newSecret, secretHash } from '../../platform/secret.ts'
import { passwordStrongEnough } from '../accounts/password.ts'
import { type AccountRow, accountByEmail, accountById } from '../accounts/repo.ts'
import { createTeamMails } from '../mails/team.ts'
import {
  changesOf,
  deleteMember,
  insertInvite,
  insertMember,
  lockTeam,
  membersOf,
  openInvites,
  setRole,
  useInvite,
} from './repo.ts'

// A team of advertisers (docs/advertisers.md "A team"; roles in src/domain/team.ts): an owner
// invites a colleague by e-mail with a one-time link (hashed, a week, once); following it makes the
// colleague's login in the team, its e-mail verified by the link. Changes of members and roles are
// made under the team's lock, so two owners leaving at once still leave one. The guard checks each
// call's role (guard.ts); this module only manages who is in the team.

export type TeamProblem =
  | { code: 'token_missing_or_bad' }
  | { code: 'password_not_strong' }
  | { code: 'team_email_taken' }
  | { code: 'team_member_not_found' }
  | { code: 'team_last_owner' }
  | { code: 'team_founder_stays' }
  | { code: 'sign_in_busy'; params: { seconds: number } }

/** The problems of TeamProblem with these codes (what one call can answer). */
type TeamProblemOf<C extends TeamProblem['code']> = Extract<TeamProblem, { code: C }>

export type TeamService = ReturnType<typeof createTeamService>

export function createTeamService(deps: {
  database: Database
  passwords: PasswordWork
  mail: Pick<MailService, 'queueNotice' | 'origin'>
  log: Logger
  now: () => number
}) {
  const db = deps.database
  const mails = createTeamMails(deps.mail)

  async function view(login: AccountRow): Promise<Team> {
    return {
      you: { memberId: login.accountId, role: login.role },
      members: await membersOf(db, login.teamId),
      invites: await openInvites(db, login.teamId, deps.now()),
    }
  }

  /** Takes a member out or changes its role, keeping an owner and the founding account. */
  async function change(
    login: AccountRow,
    memberId: string,
    to: MemberRole | 'gone',
  ): Promise<
    Result<void, TeamProblemOf<'team_member_not_found' | 'team_founder_stays' | 'team_last_owner'>>
  > {
    return db.transaction(async (tx) => {
      await lockTeam(tx, login.teamId)
      const members = await membersOf(tx, login.teamId)
      const member = members.find((m) => m.memberId === memberId)
      if (!member) return err({ code: 'team_member_not_found' as const })
      if (to === 'gone' && memberId === login.teamId) {
        return err({ code: 'team_founder_stays' as const })
      }
      const owners = members.filter((m) => m.role === 'owner').length
      if (to !== 'owner' && !keepsAnOwner(owners, member)) {
        return err({ code: 'team_last_owner' as const })
      }
      if (to === 'gone') await deleteMember(tx, login.teamId, memberId)
      else await setRole(tx, login.teamId, memberId, to)
      return ok(undefined)
    })
  }

  return {
    view,

    /** An invitation mailed in the team's language; the same answer whether or not it has an account. */
    async invite(login: AccountRow, invite: { email: string; role: MemberRole }): Promise<Team> {
      const token = newSecret()
      const nowMs = deps.now()
      await insertInvite(
        db,
        {
          tokenHash: secretHash(token),
          teamId: login.teamId,
          email: invite.email,
          role: invite.role,
          invitedBy: login.accountId,
          expiresAtMs: nowMs + INVITE_LINK_TTL_MS,
        },
        nowMs,
      )
      const team = await accountById(db, login.teamId)
      await mails.invite(
        { email: invite.email, locale: team?.locale ?? login.locale },
        { name: login.name, company: team?.company ?? login.company },
        invite.role,
        token,
      )
      deps.log.info('advertiser invited', { teamId: login.teamId, role: invite.role })
      return view(login)
    },

    /** The invitation's link: the colleague's login, in the team, with the invited role. */
    async accept(request: {
      token: string
      name: string
      password: string
    }): Promise<
      Result<
        { accountId: string; email: string },
        TeamProblemOf<
          'token_missing_or_bad' | 'password_not_strong' | 'team_email_taken' | 'sign_in_busy'
        >
      >
    > {
      const hashed = await deps.passwords.hash(request.password)
      if (!hashed.ok) return err({ code: 'sign_in_busy', params: { seconds: 1 } })
      return db
        .transaction(async (tx) => {
          const nowMs = deps.now()
          const invite = await useInvite(tx, secretHash(request.token), nowMs)
          if (!invite) return err({ code: 'token_missing_or_bad' as const })
          if (!(await passwordStrongEnough(request.password, [invite.email, request.name]))) {
            // the link stays good for another try: this transaction is rolled back
            throw new WeakPassword()
          }
          if (await accountByEmail(tx, invite.email))
            return err({ code: 'team_email_taken' as const })
          const accountId = randomUUID()
          const made = await insertMember(
            tx,
            {
              accountId,
              teamId: invite.teamId,
              email: invite.email,
              name: request.name,
              role: invite.role,
              passwordHash: hashed.value,
            },
            nowMs,
          )
          return made
            ? ok({ accountId, email: invite.email })
            : err({ code: 'team_email_taken' as const })
        })
        .catch((error: unknown) => {
          if (error instanceof WeakPassword) return err({ code: 'password_not_strong' as const })
          throw error
        })
    },

    // a role is never 'gone': the founder's rule cannot refuse it
    setRole: (login: AccountRow, memberId: string, role: MemberRole) =>
      change(login, memberId, role) as Promise<
        Result<void, TeamProblemOf<'team_member_not_found' | 'team_last_owner'>>
      >,
    remove: (login: AccountRow, memberId: string) => change(login, memberId, 'gone'),
    leave: (login: AccountRow) => change(login, login.accountId, 'gone'),

    /** Who made each change of a campaign (its page's history). */
    changes: (campaignId: string) => changesOf(db, campaignId),
  }
}

class WeakPassword extends Error {}
