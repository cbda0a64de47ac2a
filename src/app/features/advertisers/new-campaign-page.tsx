import { Trans, useLingui } from '@lingui/react/macro'
import { getRouteApi, useNavigate } from '@tanstack/react-router'
import { type FormEvent, useRef, useState } from 'react'
import { ref, useSnapshot } from 'valtio'
import { type AdContent, advertisers, type InventoryLine } from '../../../contract/advertisers'
import { DAYPARTS } from '../../../domain/campaign'
import { parseAmount } from '../../../domain/money'
import type { ProblemData } from '../../../domain/problems'
import { problemText } from '../../lib/problem-text'
import { useLoad } from '../../lib/use-load'
import { Button } from '../../ui/button'
import { Checkbox } from '../../ui/checkbox'
import { Notice } from '../../ui/notice'
import { TextField } from '../../ui/text-field'
import { BillboardPicker } from './billboard-picker'
import { draftStore, fromLocalInput, resetDraft } from './draft'
import { DAYPART_LABELS } from './format'
import { problemsOfError, splitProblems } from './problems'
import { callAsAdvertiser } from './session'
import './advertisers.css'

const route = getRouteApi('/_default/_advertiser/campaigns/new')

const FIELDS = [
  'name',
  'startEpochMs',
  'endEpochMs',
  'dayparts',
  'budgetCents',
  'deviceIds',
  'file',
] as const
type Field = (typeof FIELDS)[number]
const BY_CODE: Partial<Record<string, Field>> = {
  campaign_start_past: 'startEpochMs',
  campaign_start_too_soon: 'startEpochMs',
  campaign_end_before_start: 'endEpochMs',
  campaign_flight_too_long: 'endEpochMs',
  billboard_not_for_ads: 'deviceIds',
  billboard_currency_mismatch: 'deviceIds',
  billboard_listed_twice: 'deviceIds',
  campaign_nothing_to_sell: 'budgetCents',
  campaign_no_content: 'file',
  campaign_content_failed: 'file',
  upload_too_large: 'file',
  upload_wrong_type: 'file',
  upload_no_file: 'file',
}
const ACCEPT = '.jpg,.jpeg,.gif,.png,image/jpeg,image/gif,image/png,.mp4,video/*'
const POLL_MS = 1_000
const POLL_LIMIT = 120

/** How long the dates stay unchanged before the inventory is asked for them. */
const INVENTORY_SETTLE_MS = 300

const pause = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms))

/** `/campaigns/new`: billboards, flight, dayparts, budget and the ad; then the proposal. */
export function NewCampaignPage() {
  const { t, i18n } = useLingui()
  const navigate = useNavigate()
  const { draft, file } = useSnapshot(draftStore)
  const [problems, setProblems] = useState<ProblemData[]>([])
  const [busy, setBusy] = useState<string | null>(null)

  const from = fromLocalInput(draft.start)
  const to = fromLocalInput(draft.end)
  // the route's loader read the billboards for the dates the page opened with
  // (advertiser-loaders.ts); other dates are asked once they stop changing: the server counts an
  // account's inventory calls (AD_PLANNING_PER_MINUTE), and typing a date changes it at each
  // keystroke
  const first = route.useLoaderData()
  const [asked] = useLoad(
    async (signal) => {
      const window = from !== null && to !== null && to > from ? { from, to } : null
      if (!window || (window.from === first.fromEpochMs && window.to === first.toEpochMs)) {
        return first
      }
      await pause(INVENTORY_SETTLE_MS)
      if (signal.aborted) throw signal.reason
      return callAsAdvertiser(advertisers.inventory, {
        query: { fromEpochMs: window.from, toEpochMs: window.to },
        signal,
      })
    },
    [from, to],
    problemsOfError,
  )
  const lastAnswer = useRef(first)
  if (asked.status === 'ready') lastAnswer.current = asked.value
  // the last answer stays while the next is asked
  const inventory: readonly InventoryLine[] = lastAnswer.current.billboards
  const loadProblems = asked.status === 'failed' ? asked.message : []

  const chosenLines = (inventory ?? []).filter((l) => draft.deviceIds.includes(l.deviceId))
  // one currency per campaign: the one chosen, else the first billboard picked's
  const chosenCurrency = draft.currency ?? chosenLines[0]?.currency ?? null
  const currency = chosenCurrency ?? inventory?.[0]?.currency ?? 'EUR'
  const currencies = [...new Set((inventory ?? []).map((l) => l.currency))].sort()
  const split = splitProblems([...loadProblems, ...problems], FIELDS, BY_CODE)
  const message = (field: Field) => {
    const problem = split.fields[field]
    return problem ? problemText(i18n, problem) : null
  }
  const clear = (field: Field) => {
    const problem = split.fields[field]
    if (problem) setProblems((all) => all.filter((p) => p !== problem))
  }

  const check = (): ProblemData[] => {
    const found: ProblemData[] = []
    const required = (field: Field) => found.push({ code: 'field_required', params: { field } })
    if (!draft.name.trim()) required('name')
    if (from === null) required('startEpochMs')
    if (to === null) required('endEpochMs')
    if (draft.dayparts.length === 0) required('dayparts')
    if (draft.deviceIds.length === 0) required('deviceIds')
    if (parseAmount(draft.budget, currency) === null) {
      found.push({
        code: 'field_invalid',
        params: { field: 'budgetCents', detail: t`enter an amount, such as 500` },
      })
    }
    if (!file && !draft.contentGuid) required('file')
    return found
  }

  /** The campaign on the server as the form says: made once, changed after. */
  const saveCampaign = async (): Promise<string> => {
    const body = {
      name: draft.name.trim(),
      budgetCents: parseAmount(draft.budget, currency) ?? 0,
      currency,
      startEpochMs: from ?? 0,
      endEpochMs: to ?? 0,
      deviceIds: [...draft.deviceIds],
      dayparts: [...draft.dayparts],
    }
    const made = draftStore.draft.campaignId
    if (made) {
      await callAsAdvertiser(advertisers.updateCampaign, { params: { campaignId: made }, body })
      return made
    }
    const campaign = await callAsAdvertiser(advertisers.createCampaign, { body })
    draftStore.draft.campaignId = campaign.campaignId
    return campaign.campaignId
  }

  /** The ad uploaded (unless this very file already was) and processed. */
  const uploadAd = async (campaignId: string): Promise<void> => {
    const chosen = draftStore.file
    const key = chosen ? `${chosen.name}|${chosen.size}|${chosen.lastModified}` : null
    let ad: AdContent | null = null
    if (chosen && key !== draftStore.draft.uploadedFile) {
      const form = new FormData()
      form.append('file', chosen, chosen.name)
      ad = await callAsAdvertiser(advertisers.uploadContent, {
        params: { campaignId },
        formData: form,
      })
      draftStore.draft.contentGuid = ad.contentGuid
      draftStore.draft.uploadedFile = key
    }
    const guid = draftStore.draft.contentGuid
    if (!guid) return
    for (let i = 0; (ad?.status ?? 'processing') === 'processing' && i < POLL_LIMIT; i++) {
      if (ad) await pause(POLL_MS)
      ad = await callAsAdvertiser(advertisers.content, { params: { contentGuid: guid } })
    }
  }

  const submit = async (e: FormEvent) => {
    e.preventDefault()
    const invalid = check()
    setProblems(invalid)
    if (invalid.length > 0) return
    try {
      setBusy(t`Saving the campaign…`)
      const campaignId = await saveCampaign()
      setBusy(t`Uploading the ad…`)
      await uploadAd(campaignId)
      setBusy(t`Working out the proposal…`)
      const proposal = await callAsAdvertiser(advertisers.propose, {
        params: { campaignId },
        body: {},
      })
      resetDraft()
      await navigate({
        to: '/proposal/$proposalGuid',
        params: { proposalGuid: proposal.proposalGuid },
      })
    } catch (error) {
      setProblems(problemsOfError(error))
    } finally {
      setBusy(null)
    }
  }

  return (
    <main className="page adv" id="main">
      <h1 className="page__title">
        <Trans>New campaign</Trans>
      </h1>
      {split.rest.length > 0 ? (
        <Notice tone="error">{split.rest.map((p) => problemText(i18n, p)).join(' ')}</Notice>
      ) : null}
      <form className="card" onSubmit={(e) => void submit(e)} noValidate>
        <TextField
          label={t`Campaign name`}
          value={draft.name}
          error={message('name')}
          onChange={(e) => {
            draftStore.draft.name = e.target.value
            clear('name')
          }}
        />
        <div className="field-pair">
          <TextField
            label={t`Start`}
            type="datetime-local"
            value={draft.start}
            error={message('startEpochMs')}
            hint={t`At least 4 hours from now`}
            onChange={(e) => {
              draftStore.draft.start = e.target.value
              clear('startEpochMs')
            }}
          />
          <TextField
            label={t`End`}
            type="datetime-local"
            value={draft.end}
            error={message('endEpochMs')}
            onChange={(e) => {
              draftStore.draft.end = e.target.value
              clear('endEpochMs')
            }}
          />
        </div>
        <fieldset
          className={`field ${message('dayparts') ? 'field--error' : ''}`}
          aria-describedby={message('dayparts') ? 'dayparts-error' : undefined}
        >
          <legend className="field__label">
            <Trans>Times of day (on each billboard's clock)</Trans>
          </legend>
          <div className="adv__dayparts">
            {DAYPARTS.map((part) => (
              <Checkbox
                key={part}
                checked={draft.dayparts.includes(part)}
                onChange={(e) => {
                  const others = draftStore.draft.dayparts.filter((p) => p !== part)
                  draftStore.draft.dayparts = e.target.checked
                    ? DAYPARTS.filter((p) => p === part || others.includes(p))
                    : others
                  clear('dayparts')
                }}
              >
                {i18n._(DAYPART_LABELS[part])}
              </Checkbox>
            ))}
          </div>
          {message('dayparts') ? (
            <p id="dayparts-error" className="field__error" role="alert">
              {message('dayparts')}
            </p>
          ) : null}
        </fieldset>
        {currencies.length > 1 ? (
          <label className="field">
            <span className="field__label">
              <Trans>Currency of the campaign</Trans>
            </span>
            <select
              className="field__input"
              value={draft.currency ?? ''}
              onChange={(e) => {
                const next = e.target.value || null
                draftStore.draft.currency = next
                // a campaign is in one currency: billboards sold in another are dropped
                if (next) {
                  draftStore.draft.deviceIds = draftStore.draft.deviceIds.filter(
                    (id) => inventory?.find((l) => l.deviceId === id)?.currency === next,
                  )
                }
              }}
            >
              <option value="">
                {chosenLines[0]
                  ? t`${chosenLines[0].currency}, that of the first billboard picked`
                  : t`That of the first billboard picked`}
              </option>
              {currencies.map((c) => (
                <option key={c} value={c}>
                  {c}
                </option>
              ))}
            </select>
          </label>
        ) : null}
        <BillboardPicker
          lines={inventory}
          chosen={draft.deviceIds}
          currency={chosenCurrency}
          error={message('deviceIds')}
          onToggle={(deviceId, on) => {
            const others = draftStore.draft.deviceIds.filter((id) => id !== deviceId)
            draftStore.draft.deviceIds = on ? [...others, deviceId] : others
            clear('deviceIds')
          }}
        />
        <TextField
          label={chosenCurrency ? t`Budget (${chosenCurrency})` : t`Budget`}
          inputMode="decimal"
          value={draft.budget}
          error={message('budgetCents')}
          hint={
            chosenCurrency
              ? t`The most the campaign may cost: only plays that were shown are charged.`
              : t`In the currency of the billboards you pick. Only plays that were shown are charged.`
          }
          onChange={(e) => {
            draftStore.draft.budget = e.target.value
            clear('budgetCents')
          }}
        />
        <TextField
          label={t`The ad (an image or a video)`}
          type="file"
          accept={ACCEPT}
          error={message('file')}
          hint={
            draft.uploadedFile && !file
              ? t`An ad is uploaded; choose a file only to replace it.`
              : t`It is fitted to each billboard's screen and checked before it plays.`
          }
          onChange={(e) => {
            const chosen = e.target.files?.[0]
            // kept as it is: a proxied File is no Blob to upload
            draftStore.file = chosen ? ref(chosen) : null
            clear('file')
          }}
        />
        <Button
          kind={busy ? 'loading' : 'orange'}
          size="large"
          htmlType="submit"
          loadingLabel={busy ?? undefined}
        >
          <Trans>Get the proposal</Trans>
        </Button>
        {busy ? <p role="status">{busy}</p> : null}
      </form>
    </main>
  )
}
