import { advertiserTeam as api } from '../../contract/advertisers-team.ts'
import type { ApiRouter } from '../platform/http/router.ts'
import type { ClientLimits } from '../platform/rate-limit.ts'
import { mapOk, ok } from '../platform/result.ts'
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

  guard.handle(router, api.team, async ({ login }) => ok(await team.view(login)))

  guard.handle(
    router,
    api.invite,
    async ({ login, body }) => ok(await team.invite(login, body)),
    limits.writes('advertiser-invites'),
  )

  router.handle(
    api.acceptInvite,
    async ({ body }) => {
      const made = await team.accept(body)
      return made
    },
    limits.writes('advertiser-invite-accepts'),
  )

  guard.handle(router, api.setRole, async ({ login, params, body }) => {
    const done = await team.setRole(login, params.memberId, body.role)
    return done.ok ? ok(await team.view(login)) : done
  })

  guard.handle(router, api.remove, async ({ login, params }) => {
    const done = await team.remove(login, params.memberId)
    return done.ok ? ok(await team.view(login)) : done
  })

  guard.handle(router, api.leave, async ({ login }) => {
    const done = await team.leave(login)
    return mapOk(done, () => ({}))
  })

  guard.handle(router, api.campaignChanges, async ({ account, params }) => {
    const found = await campaigns.get(account.accountId, params.campaignId)
    if (!found.ok) return found
    return ok({ changes: await team.changes(params.campaignId) })
  })
}
