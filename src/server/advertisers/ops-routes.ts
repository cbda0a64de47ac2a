import { opsAdvertisers } from '../../contract/ops/advertisers.ts'
import { opsCampaigns as api } from '../../contract/ops/campaigns.ts'
import type { OpsGuard } from '../auth/guard.ts'
import type { ApiRouter } from '../platform/http/router.ts'
import { ok } from '../platform/result.ts'
import type { AdvertisersService } from './service.ts'

// api-v1 "Operations", campaigns: the review queue's campaigns, approve and reject (reviewers), the
// Campaigns page and cancel (admins), an advertiser's e-mail verified by hand (admins), all behind the operators' guard (auth/guard.ts).

export function opsCampaignRoutes(router: ApiRouter, guard: OpsGuard, service: AdvertisersService) {
  const { review } = service
  guard.handle(router, opsAdvertisers.verifyAdvertiser, async ({ body, operator }) => {
    const done = await service.accounts.verifyByOperator(body.email, operator)
    return done
  })
  guard.handle(router, api.reviewCampaigns, async () => ok({ campaigns: await review.queue() }))
  guard.handle(router, api.campaigns, async () => ok({ campaigns: await review.all() }))
  guard.handle(router, api.campaign, async ({ params }) => {
    const found = await review.get(params.campaignId)
    return found
  })
  guard.handle(router, api.approveCampaign, async ({ params, operator }) => {
    const done = await review.approve(params.campaignId, operator)
    return done
  })
  guard.handle(router, api.rejectCampaign, async ({ params, body, operator }) => {
    const done = await review.reject(params.campaignId, operator, body.reason)
    return done
  })
  guard.handle(router, api.cancelCampaign, async ({ params, body, operator }) => {
    const done = await review.cancel(params.campaignId, operator, body.reason)
    return done
  })
}
