import { advertisers as api } from '../../contract/advertisers.ts'
import { advertiserDoor as door } from '../../contract/advertisers-door.ts'
import { receiveUpload } from '../content/receive.ts'
import { contentRefusal } from '../content/refusals.ts'
import { clientAddress } from '../platform/http/client.ts'
import { withFailureFields } from '../platform/http/errors.ts'
import type { ApiRouter } from '../platform/http/router.ts'
import type { Logger } from '../platform/log.ts'
import type { ClientLimits } from '../platform/rate-limit.ts'
import { err, mapOk, ok } from '../platform/result.ts'
import type { AccountProblem } from './accounts/accounts.ts'
import { reportCsv } from './campaigns/report.ts'
import type { AdvertiserGuard } from './guard.ts'
import type { AdvertisersService } from './service.ts'

// api-v1 "Advertisers" over HTTP. The calls before a session (sign-up, verification, sign-in,
// refresh, sign-out, password reset, a proposal's link) are registered as they are, those that read
// or set the refresh cookie behind the Origin check; every other call through the guard (guard.ts:
// the bearer token, then the handler gets the account). A refusal is a problem of the catalogue.

// Per address, on the shared limiter: a page asks the billboards once per visit (and caches them),
// and the strength of a password once a typing pause; a flood of either is refused on every instance.
const BILLBOARDS_FOR_SALE_RULE = { bucket: 'advertiser-billboards', limit: 60, windowMs: 60_000 }
const PASSWORD_STRENGTH_RULE = {
  bucket: 'advertiser-password-strength',
  limit: 60,
  windowMs: 60_000,
}

export function advertiserRoutes(
  router: ApiRouter,
  service: AdvertisersService,
  guard: AdvertiserGuard,
  deps: { limits: ClientLimits; trustProxy: number; planningPerMinute: number; log: Logger },
) {
  const { accounts, campaigns, ads, proposals } = service
  // the calls that plan ad time (up to a quarter on several billboards), counted per account in
  // the database, whichever instance answers: AD_PLANNING_PER_MINUTE of them together
  const planning = deps.limits.byKey(
    { bucket: 'ad-planning', limit: deps.planningPerMinute, windowMs: 60_000 },
    (c) => guard.accountOf(c).accountId,
  )
  const address = (c: Parameters<typeof clientAddress>[0]) => clientAddress(c, deps.trustProxy)
  // a refusal that says when to try again (a limit, the password checks busy) says it in a header too
  const limited = <P extends AccountProblem>(
    c: { header(name: string, value: string): void },
    error: P,
  ) => {
    if ('params' in error) c.header('Retry-After', String(error.params.seconds))
    return err(error)
  }

  router.handle(
    api.signUp,
    async ({ c, body }) => {
      const signed = await accounts.signUp(body)
      if (!signed.ok) return limited(c, signed.error)
      return ok({})
    },
    deps.limits.writes('advertiser-sign-ups'),
  )

  router.handle(api.verify, async ({ body }) => {
    const verified = await accounts.verifyEmail(body.token)
    return verified
  })

  router.handle(
    api.signIn,
    async ({ c, body }) => {
      const signedIn = await accounts.signIn(body.email, body.password, address(c))
      if (!signedIn.ok) return limited(c, signedIn.error)
      guard.setRefreshCookie(c, signedIn.value.refreshToken)
      c.header('Cache-Control', 'no-store')
      return ok(signedIn.value.session)
    },
    guard.sameOrigin,
  )

  router.handle(
    api.refresh,
    async ({ c }) => {
      const refreshed = await accounts.refresh(guard.refreshTokenOf(c))
      c.header('Cache-Control', 'no-store')
      if (!refreshed.ok) {
        guard.clearRefreshCookie(c)
        return refreshed
      }
      guard.setRefreshCookie(c, refreshed.value.refreshToken)
      return ok(refreshed.value.session)
    },
    guard.sameOrigin,
  )

  router.handle(
    api.signOut,
    async ({ c }) => {
      await accounts.signOut(guard.refreshTokenOf(c))
      guard.clearRefreshCookie(c)
      return ok(null)
    },
    guard.sameOrigin,
  )

  router.handle(
    api.passwordReset,
    async ({ c, body }) => {
      // the same 202 whether or not the e-mail has an account (its link is made after the answer)
      const asked = await accounts.requestReset(body.email)
      return asked.ok ? ok({}) : limited(c, asked.error)
    },
    deps.limits.writes('advertiser-resets'),
  )

  router.handle(
    door.resendVerification,
    async ({ c, body }) => {
      // the same 202 whether or not the e-mail has an account waiting (its link is made after)
      const asked = await accounts.resendVerification(body.email)
      return asked.ok ? ok({}) : limited(c, asked.error)
    },
    deps.limits.writes('advertiser-resends'),
  )

  router.handle(
    door.passwordStrength,
    async ({ c, body }) => {
      c.header('Cache-Control', 'no-store')
      return ok(await accounts.passwordStrength(body))
    },
    deps.limits.byKey(PASSWORD_STRENGTH_RULE, deps.limits.clientKey),
  )

  router.handle(
    door.billboardsForSale,
    async ({ c }) => {
      c.header('Cache-Control', 'public, max-age=300')
      return ok({ billboards: await service.billboardsForSale() })
    },
    deps.limits.byKey(BILLBOARDS_FOR_SALE_RULE, deps.limits.clientKey),
  )

  router.handle(api.passwordResetConfirm, async ({ body }) => {
    const done = await accounts.confirmReset(body.token, body.password)
    return mapOk(done, () => null)
  })

  guard.handle(
    router,
    api.inventory,
    async ({ query }) => {
      const found = await proposals.inventory(query)
      return found
    },
    planning,
  )

  guard.handle(router, api.createCampaign, async ({ account, body }) => {
    const made = await campaigns.create(account.accountId, body)
    return made
  })

  guard.handle(router, api.campaigns, async ({ account }) =>
    ok({
      campaigns: await campaigns.list(account.accountId),
    }),
  )

  guard.handle(router, api.campaign, async ({ account, params }) => {
    const found = await campaigns.get(account.accountId, params.campaignId)
    return found
  })

  guard.handle(
    router,
    api.updateCampaign,
    async ({ account, params, body }) => {
      const changed = await campaigns.update(account.accountId, params.campaignId, body)
      return changed
    },
    planning,
  )

  guard.handle(
    router,
    api.uploadContent,
    async ({ c, account, params }) => {
      const uploaded = await ads.upload(account.accountId, params.campaignId, (intake) =>
        receiveUpload(c.req.raw, intake),
      )
      if (uploaded.ok) return ok(withFailureFields(uploaded.value))
      const error = uploaded.error
      return err('refused' in error ? contentRefusal(error.refused) : error)
    },
    deps.limits.writes('advertiser-uploads'),
  )

  guard.handle(router, api.content, async ({ account, params }) => {
    const found = await ads.get(account.accountId, params.contentGuid)
    return mapOk(found, withFailureFields)
  })

  guard.handle(
    router,
    api.propose,
    async ({ account, params }) => {
      const made = await proposals.propose(account.accountId, params.campaignId)
      return made
    },
    planning,
  )

  router.handle(api.proposal, async ({ c, params }) => {
    const found = await proposals.proposal(params.proposalGuid)
    // a link to share, never a page to keep in a shared cache
    c.header('Cache-Control', 'no-store')
    c.header('Referrer-Policy', 'no-referrer')
    return found
  })

  guard.handle(router, api.accept, async ({ account, params, body }) => {
    const booked = await proposals.accept(account.accountId, params.proposalGuid, body)
    return booked
  })

  guard.handle(router, api.pause, async ({ account, params }) => {
    const moved = await campaigns.pause(account.accountId, params.campaignId)
    return moved
  })

  guard.handle(router, api.resume, async ({ account, params }) => {
    const moved = await campaigns.resume(account.accountId, params.campaignId)
    return moved
  })

  guard.handle(router, api.cancel, async ({ account, params }) => {
    const moved = await campaigns.cancel(account.accountId, params.campaignId)
    return moved
  })

  guard.handle(router, api.nextPlays, async ({ account, params }) => {
    const found = await campaigns.nextPlays(account.accountId, params.campaignId)
    return found
  })

  guard.handle(router, api.report, async ({ c, account, params, query }) => {
    const found = await campaigns.report(account.accountId, params.campaignId)
    if (!found.ok) return found
    if (query.format === 'csv') {
      return ok(
        c.body(reportCsv(found.value), 200, {
          'Content-Type': 'text/csv; charset=utf-8',
          'Content-Disposition': `attachment; filename="campaign-${found.value.campaignId}.csv"`,
        }),
      )
    }
    return ok(found.value)
  })
}
