// What the benchmarks do as a shopper, written once for bench.ts and bench-scale.ts: upload a photo,
// and agree to what the checkout requires (spec §6: the required agreements ticked, the optional not).
import sharp from 'sharp'
import type { Agreements } from '../src/contract/order.ts'

/** Uploads a small generated photo to the server at `base`; answers the upload's id. */
export async function uploadBenchPhoto(base: string): Promise<string> {
  const png = await sharp({
    create: { width: 320, height: 240, channels: 3, background: '#c2185b' },
  })
    .png()
    .toBuffer()
  const form = new FormData()
  form.append('file', new Blob([new Uint8Array(png)], { type: 'image/png' }), 'p.png')
  const upload = (await (
    await fetch(`${base}/api/v1/content/uploads`, { method: 'POST', body: form })
  ).json()) as { id: string }
  return upload.id
}

/** What a bench shopper writes for a billboard of the live event (content/generate's request). */
export function benchContentSource(deviceId: string, generatorId: string, uploadId: string) {
  return {
    generatorId,
    deviceId,
    eventSlug: 'share-the-love',
    uploadId,
    buyerName: 'Bench',
    recipientName: 'Mark',
    multilineMessage: 'Hello',
  }
}

export const BENCH_AGREEMENTS: Agreements = {
  safetyWarning: true,
  terms: true,
  noChanges: true,
  privacyPolicy: true,
  userGeneratedContentPolicy: true,
  shareInfoWithSponsor: false,
  marketingEmails: false,
  sms: false,
}
