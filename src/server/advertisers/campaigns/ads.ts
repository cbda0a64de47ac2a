import { randomUUID } from 'node:crypto'
import type { AdContent } from '../../../contract/advertisers.ts'
import { type Problem, problem } from '../../../contract/problems.ts'
import { AD_PLAY_MS } from '../../../domain/ad-time.ts'
import { mayChangeContent } from '../../../domain/campaign.ts'
import { adBillboards } from '../../catalogue/ad-reads.ts'
import type { UploadRefusal } from '../../content/errors.ts'
import type { UploadReceiver } from '../../content/processors.ts'
import type { ContentService } from '../../content/service.ts'
import type { Database } from '../../platform/db/client.ts'
import type { Logger } from '../../platform/log.ts'
import { err, ok, type Result } from '../../platform/result.ts'
import { type OwnCampaignCode, ownCampaign } from './campaigns.ts'
import {
  type AdContentRow,
  adContentByGuid,
  addRendition,
  adsOfActiveCampaigns,
  type CampaignRow,
  insertAdContent,
  setAdError,
} from './repo.ts'

// A campaign's ad (api-v1 "Advertisers"): an upload through the shop's content pipeline (the image
// and video rules, moderation: the content service), then fitted to the size of each billboard the
// campaign names (content service `fitToScreen`). A photo is fitted at once; a video once it is
// processed, by the `ad-renditions` job, which also fits the ad to a billboard added later. The ad is
// ready when every size it needs is made.

/** An ad as api-v1's `Content`, its failure as problems (the HTTP edge writes their English). */
export type AdView = Omit<AdContent, 'error'> & { problems: Problem[] }

/** An upload refused (413, 415...: the content module's own answer), or a problem of the campaign. */
export type AdUploadError =
  | { code: 'upload_refused'; refused: UploadRefusal }
  | Problem<OwnCampaignCode | 'campaign_content_locked'>

/** Why a campaign's ad does not let it be proposed. */
export type AdProblem = Problem<
  'campaign_no_content' | 'campaign_content_failed' | 'campaign_content_processing'
>

const sizeOf = (b: { contentWidth: number; contentHeight: number }) =>
  `${b.contentWidth}x${b.contentHeight}`

export type AdService = ReturnType<typeof createAdService>

export function createAdService(deps: {
  database: Database
  now: () => number
  content: ContentService
  log: Logger
}) {
  const { database: db, content, log } = deps

  /** The sizes the campaign's billboards show, each with a billboard of that size. */
  async function screensOf(deviceIds: readonly string[]) {
    const billboards = await adBillboards(db, deviceIds)
    const screens = new Map<string, { deviceId: string; widthPx: number; heightPx: number }>()
    for (const b of billboards) {
      if (!screens.has(sizeOf(b))) {
        screens.set(sizeOf(b), {
          deviceId: b.deviceId,
          widthPx: b.contentWidth,
          heightPx: b.contentHeight,
        })
      }
    }
    return screens
  }

  /** Fits the ad to every size its campaign needs and lacks; a failure is kept on the ad. */
  async function renderMissing(
    ad: AdContentRow,
    deviceIds: readonly string[],
    signal?: AbortSignal,
  ) {
    for (const [size, screen] of await screensOf(deviceIds)) {
      if (ad.renditions[size]) continue
      const fitted = await content.fitToScreen(ad.uploadId, screen, {
        maxVideoSeconds: AD_PLAY_MS / 1000,
        ...(signal ? { signal } : {}),
      })
      if (!fitted.ok) {
        // still processing: later; any other failure is the ad's
        if (fitted.error.code === 'upload_processing') return
        await setAdError(db, ad.contentGuid, { code: 'campaign_content_failed' })
        return
      }
      const { key, url, flagged, flagReasons, type, durationSeconds } = fitted.value
      await addRendition(db, ad.contentGuid, size, {
        key,
        url,
        flagged,
        flagReasons,
        type,
        durationSeconds,
      })
    }
  }

  /** The ad as the API shows it, its status judged against the sizes its campaign needs now. */
  async function adView(
    ad: AdContentRow,
    campaign: Pick<CampaignRow, 'deviceIds'>,
  ): Promise<AdView> {
    const upload = await content.uploadStatus(ad.uploadId)
    const sizes = [...(await screensOf(campaign.deviceIds)).keys()]
    const renditions = Object.entries(ad.renditions).map(([size, r]) => {
      const [w, h] = size.split('x').map(Number)
      return { widthPx: w ?? 0, heightPx: h ?? 0, url: r.url, flagged: r.flagged }
    })
    const base = { contentGuid: ad.contentGuid, renditions }
    if (!upload.ok) return { ...base, status: 'failed', type: null, url: null, problems: [] }
    const u = upload.value
    if (u.status === 'failed' || ad.error) {
      const problems = [...(ad.error ? [ad.error as Problem] : []), ...u.problems]
      return { ...base, status: 'failed', type: u.kind, url: null, problems }
    }
    const complete = u.status === 'ready' && sizes.every((size) => ad.renditions[size])
    return {
      ...base,
      status: complete ? 'ready' : 'processing',
      type: u.kind,
      url: u.url,
      problems: [],
    }
  }

  /**
   * POST /advertisers/campaigns/{id}/content: the upload (refused as the shop refuses it), a new ad
   * the campaign names from now on; a photo fitted to the campaign's billboards before the answer.
   */
  async function upload(
    accountId: string,
    campaignId: string,
    receive: UploadReceiver,
  ): Promise<Result<AdView, AdUploadError>> {
    const found = await ownCampaign(db, accountId, campaignId)
    if (!found.ok) return found
    const campaign = found.value
    if (!mayChangeContent(campaign.state)) {
      return err(problem('campaign_content_locked'))
    }
    const uploaded = await content.upload(receive)
    if (!uploaded.ok) return err({ code: 'upload_refused', refused: uploaded.error })
    const contentGuid = randomUUID()
    const ad = { contentGuid, campaignId, accountId, uploadId: uploaded.value.id }
    await db.transaction(async (tx) => {
      // the campaign may have been booked meanwhile: then its ad stays the one reviewed
      const locked = await ownCampaign(tx, accountId, campaignId, { lock: true })
      if (!locked.ok || !mayChangeContent(locked.value.state)) return
      await insertAdContent(tx, ad, deps.now())
    })
    const row = await adContentByGuid(db, contentGuid)
    if (!row) return err(problem('campaign_content_locked'))
    if (uploaded.value.status === 'ready') await renderMissing(row, campaign.deviceIds)
    const fresh = (await adContentByGuid(db, contentGuid)) ?? row
    log.info('ad uploaded', { campaignId, contentGuid, kind: uploaded.value.kind })
    return ok(await adView(fresh, campaign))
  }

  /** GET /advertisers/content/{guid}: an ad of the account. */
  async function get(
    accountId: string,
    contentGuid: string,
  ): Promise<Result<AdView, Problem<'campaign_forbidden' | 'content_not_found'>>> {
    const ad = await adContentByGuid(db, contentGuid)
    if (!ad) return err(problem('content_not_found'))
    if (ad.accountId !== accountId) return err(problem('campaign_forbidden'))
    const found = await ownCampaign(db, accountId, ad.campaignId)
    // an ad goes with its campaign (deleted together): a campaign gone is its ad gone
    if (!found.ok) {
      return err(
        found.error.code === 'campaign_forbidden'
          ? problem('campaign_forbidden')
          : problem('content_not_found'),
      )
    }
    return ok(await adView(ad, found.value))
  }

  /**
   * Why the campaign cannot be proposed for its ad (none, still processing, failed), or null when
   * it is ready at every size. A photo missing a size (a billboard added) is fitted here and now.
   */
  async function adProblem(campaign: CampaignRow): Promise<AdProblem | null> {
    if (!campaign.contentGuid) return problem('campaign_no_content')
    let ad = await adContentByGuid(db, campaign.contentGuid)
    if (!ad) return problem('campaign_no_content')
    let shown = await adView(ad, campaign)
    if (shown.status === 'processing' && shown.type === 'photo') {
      await renderMissing(ad, campaign.deviceIds)
      ad = (await adContentByGuid(db, campaign.contentGuid)) ?? ad
      shown = await adView(ad, campaign)
    }
    if (shown.status === 'failed') return problem('campaign_content_failed')
    if (shown.status === 'processing') return problem('campaign_content_processing')
    return null
  }

  /** One pass of the `ad-renditions` job: up to 5 ads that miss a size their campaign needs. */
  async function renderPending(signal?: AbortSignal): Promise<number> {
    const ads = await adsOfActiveCampaigns(db)
    const billboards = await adBillboards(db, [...new Set(ads.flatMap((ad) => ad.deviceIds))])
    const sizeOfDevice = new Map(billboards.map((b) => [b.deviceId, sizeOf(b)]))
    let made = 0
    for (const ad of ads) {
      if (signal?.aborted || made >= 5) break
      const missing = ad.deviceIds.some((id) => {
        const size = sizeOfDevice.get(id)
        return size !== undefined && !ad.renditions[size]
      })
      if (!missing) continue
      const campaign = await ownCampaign(db, ad.accountId, ad.campaignId)
      if (!campaign.ok) continue
      await renderMissing(ad, campaign.value.deviceIds, signal)
      made++
    }
    return made
  }

  return { upload, get, adProblem, renderPending, adView }
}
