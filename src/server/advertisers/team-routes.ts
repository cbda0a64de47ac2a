import { advertiserTeam as api } from '../../contract/advertisers-team.ts'
import { refuse } from '../platform/http/errors.ts'
import type { ApiRouter } from '../platform/http/router.ts'
import type { ClientLimits } from '../platform/rate-limit.ts'
import type { AdvertiserGuard } from './guard.ts'
import type { AdvertisersService } from './service.ts'

// api-v1 "Advertisers", a team: its members and invitations, the invitation's acceptance (no
// session: the mail's link is the proof), roles, removal and leaving; who made each change of a
// campaign. The guard checks each call's role (src/domain/team.ts) before these run.

export function teamRoutes(
  router: ApiRouter,
  service: AdvertisersService,
  guard: AdvertiserGuard,
  limits: ClientLimits,
) {
  const { team, campaigns } = service

  guard.handle(router, api.team, ({ login }) => team.view(login))

  guard.handle(
    router,
    api.invite,
    ({ login, body }) => team.invite(login, body),
    limits.writes('advertiser-invites'),
  )

  router.handle(
    api.acceptInvite,
    async ({ body }) => {
      const made = await team.accept(body)
      return made.ok ? made.value : refuse({ problems: [made.error] })
    },
    limits.writes('advertiser-invite-accepts'),
  )

  guard.handle(router, api.setRole, async ({ login, params, body }) => {
    const done = await team.setRole(login, params.memberId, body.role)
    return done.ok ? team.view(login) : refuse({ problems: [done.error] })
  })

  guard.handle(router, api.remove, async ({ login, params }) => {
    const done = await team.remove(login, params.memberId)
    return done.ok ? team.view(login) : refuse({ problems: [done.error] })
  })

  guard.handle(router, api.leave, async ({ login }) => {
    const done = await team.leave(login)
    return done.ok ? {} : refuse({ problems: [done.error] })
  })

  guard.handle(router, api.campaignChanges, async ({ account, params }) => {
    const found = await campaigns.get(account.accountId, params.campaignId)
    if (!found.ok) return refuse({ problems: [found.error] })
    return { changes: await team.changes(params.campaignId) }
  })
}
