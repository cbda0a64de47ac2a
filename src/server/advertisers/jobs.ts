import type { Job } from '../platform/scheduler.ts'
import type { AdvertisersService } from './service.ts'

// The advertisers' background work (platform/scheduler.ts; registered in compose.ts).

/** Fits ads to the billboards' sizes they still miss (a video once processed, a billboard added). */
export function adRenditionsJob(service: AdvertisersService): Job {
  return {
    name: 'ad-renditions',
    everyMs: 2_000,
    // one instance fits an ad at a time: two would make the same files twice
    oneInstance: true,
    run: ({ signal }) => service.ads.renderPending(signal),
  }
}

/**
 * Does the advertisers' sign-ups and password resets after their answer (accounts/requests.ts), on
 * every instance: each request is claimed under a lease.
 */
export function advertiserRequestsJob(service: AdvertisersService, everyMs: number): Job {
  return {
    name: 'advertiser-requests',
    everyMs,
    run: ({ signal }) => service.accounts.runRequests(signal),
  }
}

/** Deletes expired links, refresh tokens, sessions, and accounts never verified (data lifetime). */
export function advertiserSweepJob(service: AdvertisersService): Job {
  return {
    name: 'advertiser-sweep',
    everyMs: 3_600_000,
    oneInstance: true,
    run: () => service.accounts.sweep(),
  }
}

/**
 * Charges each campaign's proven plays of each finished billboard-local day, once
 * (billing/settlement.ts), then completes the campaigns whose flight is over and settled or whose
 * budget is spent (campaigns/completion.ts). One instance: the provider's idempotency key makes a
 * second one harmless, but not free.
 */
export function adSettlementJob(service: AdvertisersService): Job {
  return {
    name: 'ad-settlement',
    everyMs: 10 * 60_000,
    oneInstance: true,
    run: async ({ signal }) => {
      const charged = await service.settlement.settle(signal)
      return charged + (await service.news.completeOver(signal))
    },
  }
}

/**
 * The receipts of the days charged (each with its invoice's PDF), apart from the settlement so its
 * run is not held by the PDFs; every second, one instance (a mail's key makes it once anyway).
 */
export function campaignReceiptsJob(service: AdvertisersService): Job {
  return {
    name: 'campaign-receipts',
    everyMs: 1000,
    oneInstance: true,
    run: ({ signal }) => service.settlement.sendReceipts(signal),
  }
}

/** The settlement's two jobs: the charges, then their receipts. */
export const adSettlementJobs = (service: AdvertisersService): Job[] => [
  adSettlementJob(service),
  campaignReceiptsJob(service),
]

/**
 * Replaces the plays billboards missed (no proof within two hours) in the time left
 * (proposals/pacing.ts).
 */
export function adPacingJob(service: AdvertisersService): Job {
  return {
    name: 'ad-pacing',
    everyMs: 5 * 60_000,
    oneInstance: true,
    run: ({ signal }) => service.pacing.run(signal),
  }
}

/** Every job of the module, as compose.ts registers them. */
export function advertiserJobs(service: AdvertisersService, mailPollMs: number): Job[] {
  return [
    adRenditionsJob(service),
    // a sign-up's or reset's mail waits for this and then for the mail sender: never longer than it
    advertiserRequestsJob(service, Math.min(1000, mailPollMs)),
    advertiserSweepJob(service),
    adPacingJob(service),
    ...adSettlementJobs(service),
  ]
}
