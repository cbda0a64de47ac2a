// A team of advertisers (docs/advertisers.md "A team"): the roles of its logins, and what each may
// do. The server checks the role of every signed-in call (src/server/advertisers/guard.ts) with
// `memberMay(role, roleNeeded(endpoint))`; the app hides what a role may not do with the same rule.

export const MEMBER_ROLES = ['owner', 'editor', 'viewer'] as const
export type MemberRole = (typeof MEMBER_ROLES)[number]

const RANK: Record<MemberRole, number> = { viewer: 0, editor: 1, owner: 2 }

/** Whether a login of this role may make a call that needs `needed`. */
export const memberMay = (role: MemberRole, needed: MemberRole): boolean =>
  RANK[role] >= RANK[needed]

// The calls only an owner makes: billing, cards (accepting a proposal saves one; replacing it) and
// members. Each is named by its endpoint's name (src/contract).
const OWNER_CALLS: ReadonlySet<string> = new Set([
  'advertiserSetBilling',
  'advertiserAccept',
  'advertiserReplaceCard',
  'advertiserTeamInvite',
  'advertiserTeamSetRole',
  'advertiserTeamRemove',
])

// The calls any member makes whatever its role (leaving the team is one's own choice).
const ANY_MEMBER_CALLS: ReadonlySet<string> = new Set(['advertiserTeamLeave'])

/**
 * The least role a call needs: an owner's for billing, cards and members; reading (GET) is a
 * viewer's; any other change (campaigns, budgets, ads, proposals) an editor's.
 */
export function roleNeeded(endpoint: { name: string; method: string }): MemberRole {
  if (OWNER_CALLS.has(endpoint.name)) return 'owner'
  if (ANY_MEMBER_CALLS.has(endpoint.name) || endpoint.method === 'GET') return 'viewer'
  return 'editor'
}

/** An invitation's link works for a week, once. */
export const INVITE_LINK_TTL_MS = 7 * 86_400_000

/**
 * Whether a member may leave or lose the owner's role: never the team's last owner (a team always
 * has someone for its billing, cards and members).
 */
export const keepsAnOwner = (owners: number, losing: { role: MemberRole }): boolean =>
  losing.role !== 'owner' || owners > 1
