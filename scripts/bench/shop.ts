// What the benchmarks do as a shopper, written once for throughput.ts and scale.ts: upload a photo,
// agree to what the checkout requires (spec §6: the required agreements ticked, the optional not) and
// place an order with a saved card.
import sharp from 'sharp'
import type { Agreements } from '../../src/contract/order.ts'
import type { Req } from './http.ts'

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

/** The body of a bench shopper's order (POST /order/orders): `n` makes its e-mail its own. */
export function benchOrderBody(order: {
  n: number
  deviceId: string
  slots: readonly number[]
  contentKey: string
  source: ReturnType<typeof benchContentSource>
  card: { customerId: string; checkoutSecretKey: string }
}): string {
  return JSON.stringify({
    entries: [{ deviceId: order.deviceId, slots: order.slots }],
    eventSlug: 'share-the-love',
    emailAddress: `bench${order.n}@example.com`,
    orderType: 'Test',
    customer: {
      firstName: 'Bench',
      lastName: 'Mark',
      // an international number, taken whatever the billboard's country
      phoneNumber: '+33 6 12 34 56 78',
      marketingAcknowledgement: { willReceive: false },
    },
    executionContentKey: order.contentKey,
    checkout: {
      stripeData: {
        customerId: order.card.customerId,
        promoCode: null,
        checkoutSecretKey: order.card.checkoutSecretKey,
      },
      state: 'New',
    },
    contentSource: order.source,
    locale: 'en',
    agreements: BENCH_AGREEMENTS,
  })
}

/** The bench's slot search: the demo event's first Paris billboard, from a day ago to 15 days ahead. */
export function benchSearchRequest(now: number): () => Req {
  const body = JSON.stringify({
    deviceId: 'paris-opera-1',
    eventSlug: 'share-the-love',
    startEpochMs: now - 86_400_000,
    endEpochMs: now + 15 * 86_400_000,
  })
  return () => ({ method: 'POST', path: '/api/v1/spotlight/slots/search', body })
}
