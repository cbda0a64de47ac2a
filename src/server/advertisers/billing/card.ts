import { createHash } from 'node:crypto'
import type { Campaign } from '../../../contract/advertisers.ts'
import { type Problem, problem } from '../../../contract/problems.ts'
import { cardRetryChargeKey } from '../../../domain/ad-settlement.ts'
import type { CampaignState } from '../../../domain/campaign.ts'
import type { CardError, PaymentService } from '../../payment/service.ts'
import type { Database } from '../../platform/db/client.ts'
import { pgErrorCode } from '../../platform/db/errors.ts'
import type { Logger } from '../../platform/log.ts'
import { err, ok, type Result } from '../../platform/result.ts'
import type { CampaignService, OwnCampaignCode } from '../campaigns/campaigns.ts'
import { ownCampaign } from '../campaigns/campaigns.ts'
import { campaignById, checkoutUsed, setCard } from '../campaigns/repo.ts'
import { retryDeclinedDays } from './repo.ts'

// The card of a campaign, replaced (docs/advertisers.md "The card, again"): a new SetupIntent saved
// through the shop's payment flow (3-D Secure there, as at acceptance) becomes the card the next days
// are charged to, and each day declined earlier is pending again under a key of its own for this
// card (src/domain/ad-settlement.ts), so the next settlement charges it once, whatever the retries.
// A campaign paused for `charge_failed` may then be resumed by its owner.

/** Why a card is not replaced: the campaign (its id, its state), or the card. */
type ReplaceCardProblem = Problem<OwnCampaignCode | CardError['code'] | 'campaign_state_conflict'>

const REPLACEABLE: ReadonlySet<CampaignState> = new Set(['Booked', 'Approved', 'Live', 'Paused'])

export function createCardReplacement(deps: {
  database: Database
  now: () => number
  payment: PaymentService
  campaigns: CampaignService
  log: Logger
}) {
  const db = deps.database

  return async function replaceCard(
    accountId: string,
    campaignId: string,
    card: { customerId: string; checkoutSecretKey: string },
  ): Promise<Result<Campaign, ReplaceCardProblem>> {
    const owned = await ownCampaign(db, accountId, campaignId)
    if (!owned.ok) return owned
    if (!REPLACEABLE.has(owned.value.state)) {
      return err(problem('campaign_state_conflict', { state: owned.value.state }))
    }
    const same = owned.value.checkoutSecretKey === card.checkoutSecretKey
    if (!same) {
      const used = await checkoutUsed(db, card.checkoutSecretKey)
      const saved = await deps.payment.cardForCheckout(
        card.checkoutSecretKey,
        card.customerId,
        used,
      )
      if (!saved.ok) return err(problem(saved.error.code))
    }
    // one reference per card: the same replacement again retries nothing twice
    const cardRef = createHash('sha256').update(card.checkoutSecretKey).digest('hex').slice(0, 16)
    try {
      const done = await db.transaction(
        async (tx): Promise<Result<string[], ReplaceCardProblem>> => {
          const locked = await ownCampaign(tx, accountId, campaignId, { lock: true })
          if (!locked.ok) return locked
          if (!REPLACEABLE.has(locked.value.state)) {
            return err(problem('campaign_state_conflict', { state: locked.value.state }))
          }
          if (!same) await setCard(tx, campaignId, card, deps.now())
          return ok(
            await retryDeclinedDays(tx, campaignId, (day) =>
              cardRetryChargeKey(campaignId, day, cardRef),
            ),
          )
        },
      )
      if (!done.ok) return done
      if (done.value.length > 0) {
        deps.log.info('declined days to charge on the new card', { campaignId, days: done.value })
      }
    } catch (error) {
      // the checkout bound to another campaign meanwhile (its unique key)
      if (pgErrorCode(error) === '23505') return err(problem('payment_already_saved'))
      throw error
    }
    const after = await campaignById(db, campaignId)
    return ok(await deps.campaigns.view(after ?? owned.value))
  }
}
