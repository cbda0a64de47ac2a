import { proxy } from 'valtio'
import type { Daypart } from '../../../contract/advertisers'

// The new campaign being written: kept while the advertiser goes from page to page (a campaign
// opened, the account page), so nothing typed is lost; the campaign it made on the server, once
// made, so trying again changes that campaign and never makes a second one.

const HOUR_MS = 3_600_000

/** `yyyy-MM-ddTHH:mm` of a moment in the browser's zone (what an `<input type=datetime-local>` holds). */
export function localInput(epochMs: number): string {
  const d = new Date(epochMs)
  const pad = (n: number) => String(n).padStart(2, '0')
  return `${d.getFullYear()}-${pad(d.getMonth() + 1)}-${pad(d.getDate())}T${pad(d.getHours())}:${pad(d.getMinutes())}`
}

/** The moment of a datetime-local value in the browser's zone, or null. */
export function fromLocalInput(value: string): number | null {
  if (!/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}$/.test(value)) return null
  const ms = new Date(value).getTime()
  return Number.isFinite(ms) ? ms : null
}

export type Draft = {
  name: string
  start: string
  end: string
  dayparts: Daypart[]
  budget: string
  /** the campaign's one currency, as chosen (null: the first billboard picked sets it) */
  currency: string | null
  deviceIds: string[]
  /** the campaign made from this draft, once made */
  campaignId: string | null
  /** the ad uploaded for it, and the file it was */
  contentGuid: string | null
  uploadedFile: string | null
}

function freshDraft(now = Date.now()): Draft {
  // a day ahead on the hour (the schedule must start 4 hours from now at the earliest), a week long
  const start = Math.ceil((now + 24 * HOUR_MS) / HOUR_MS) * HOUR_MS
  return {
    name: '',
    start: localInput(start),
    end: localInput(start + 7 * 24 * HOUR_MS),
    dayparts: ['Morning', 'Afternoon', 'Evening'],
    budget: '',
    currency: null,
    deviceIds: [],
    campaignId: null,
    contentGuid: null,
    uploadedFile: null,
  }
}

export const draftStore = proxy<{ draft: Draft; file: File | null }>({
  draft: freshDraft(),
  file: null,
})

export function resetDraft(): void {
  draftStore.draft = freshDraft()
  draftStore.file = null
}
