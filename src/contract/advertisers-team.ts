import * as v from 'valibot'
import { ADVERTISER_PASSWORD_MAX_LENGTH } from '../domain/advertiser-account'
import { MEMBER_ROLES } from '../domain/team'
import { EmailSchema, wellFormed } from '../domain/validation'
import { EmptyBodySchema, EpochMsSchema, issue, text } from './common'
import { endpoint } from './endpoint'

// api-v1 "Advertisers", a team: an owner invites colleagues by e-mail (a one-time link, as sign-up's)
// as owners, editors or viewers (src/domain/team.ts says what each may do); every signed-in call
// checks the caller's role. Behind the advertisers' guard but the invitation's acceptance.

export const MemberRoleSchema = v.picklist(MEMBER_ROLES)

export const TeamSchema = v.object({
  /** The signed-in login. */
  you: v.object({ memberId: v.string(), role: MemberRoleSchema }),
  members: v.array(
    v.object({ memberId: v.string(), email: v.string(), name: v.string(), role: MemberRoleSchema }),
  ),
  /** Invitations not accepted yet. */
  invites: v.array(
    v.object({ email: v.string(), role: MemberRoleSchema, expiresAtEpochMs: EpochMsSchema }),
  ),
})
export type Team = v.InferOutput<typeof TeamSchema>

export const CampaignChangesSchema = v.object({
  changes: v.array(
    v.object({ atEpochMs: EpochMsSchema, memberEmail: v.string(), change: v.string() }),
  ),
})

export const InviteRequestSchema = v.strictObject({ email: EmailSchema, role: MemberRoleSchema })
export const AcceptInviteSchema = v.strictObject({
  token: v.pipe(v.string(), v.maxLength(200)),
  name: text(100),
  password: v.pipe(
    v.string(),
    wellFormed(),
    v.nonEmpty(issue('field_required')),
    v.maxLength(
      ADVERTISER_PASSWORD_MAX_LENGTH,
      issue('password_too_long', { max: ADVERTISER_PASSWORD_MAX_LENGTH }),
    ),
  ),
})
export const SetRoleSchema = v.strictObject({ role: MemberRoleSchema })

const bearer = [
  { name: 'Authorization', required: true, description: 'Bearer {accessToken} (15 minutes)' },
] as const
const AUTH_ERRORS = [
  'authorization_missing',
  'session_token_unreadable',
  'session_token_expired',
  'session_ended',
  'member_role_forbidden',
] as const
const memberPath = '/advertisers/team/members/{memberId}'

export const advertiserTeam = {
  team: endpoint({
    name: 'advertiserTeam',
    method: 'GET',
    path: '/advertisers/team',
    summary: "The team's members and open invitations, and the caller's role",
    access: 'advertiser',
    headers: bearer,
    response: TeamSchema,
    errors: AUTH_ERRORS,
  }),
  invite: endpoint({
    name: 'advertiserTeamInvite',
    method: 'POST',
    path: '/advertisers/team/invites',
    summary: 'Invites a colleague by e-mail with a role (owners): a one-time link, a week',
    access: 'advertiser',
    headers: bearer,
    body: InviteRequestSchema,
    response: TeamSchema,
    status: 201,
    errors: [...AUTH_ERRORS, 'team_email_taken', 'too_many_requests'],
  }),
  acceptInvite: endpoint({
    name: 'advertiserTeamAccept',
    method: 'POST',
    path: '/advertisers/team/invites/accept',
    summary:
      "Accepts an invitation with the mail's link: the login is made (its e-mail verified by the link), then signs in",
    body: AcceptInviteSchema,
    response: v.object({ accountId: v.string(), email: v.string() }),
    errors: [
      'token_missing_or_bad',
      'password_not_strong',
      'team_email_taken',
      'sign_in_busy',
      'too_many_requests',
    ],
  }),
  setRole: endpoint({
    name: 'advertiserTeamSetRole',
    method: 'PATCH',
    path: memberPath,
    summary: "Changes a member's role (owners); the last owner stays one",
    access: 'advertiser',
    headers: bearer,
    body: SetRoleSchema,
    response: TeamSchema,
    errors: [...AUTH_ERRORS, 'team_member_not_found', 'team_last_owner'],
  }),
  remove: endpoint({
    name: 'advertiserTeamRemove',
    method: 'DELETE',
    path: memberPath,
    summary:
      "Removes a member's login (owners); never the last owner, nor the team's founding account",
    access: 'advertiser',
    headers: bearer,
    response: TeamSchema,
    errors: [...AUTH_ERRORS, 'team_member_not_found', 'team_last_owner', 'team_founder_stays'],
  }),
  leave: endpoint({
    name: 'advertiserTeamLeave',
    method: 'POST',
    path: '/advertisers/team/leave',
    summary: 'Leaves the team (its login deleted); never the last owner, nor the founding account',
    access: 'advertiser',
    headers: bearer,
    body: EmptyBodySchema,
    response: v.object({}),
    errors: [...AUTH_ERRORS, 'team_member_not_found', 'team_last_owner', 'team_founder_stays'],
  }),
  campaignChanges: endpoint({
    name: 'advertiserCampaignChanges',
    method: 'GET',
    path: '/advertisers/campaigns/{campaignId}/changes',
    summary:
      "Who of the team made each change of the campaign, oldest first (`change`: the call's name, e.g. advertiserUpdateCampaign)",
    access: 'advertiser',
    headers: bearer,
    response: CampaignChangesSchema,
    errors: [...AUTH_ERRORS, 'campaign_forbidden', 'campaign_not_found'],
  }),
} as const
