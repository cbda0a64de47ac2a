import { and, eq } from 'drizzle-orm'
import QRCode from 'qrcode'
import { spotlight } from '../../contract/index.ts'
import { eventDevices } from '../db/schema/index.ts'
import type { Db } from '../platform/db/client.ts'
import type { ApiRouter } from '../platform/http/router.ts'

// issue 4 QR entry: the operator prints a code on each billboard; scanning it opens
// {PUBLIC_BASE_URL}/{eventslug}?device={deviceId}, the flow with that billboard already chosen.
// Mounted under /api/v1/spotlight:
//   GET /api/v1/spotlight/events/{slug}/devices/{deviceId}/qr.png  (image/png, 512 px)
//   GET /api/v1/spotlight/events/{slug}/devices/{deviceId}/qr.svg  (image/svg+xml)
// 404 {errors} when the event does not show that billboard.

export type QrDeps = {
  db: Db
  /** PUBLIC_BASE_URL; without it the URL the request came in on is used. */
  publicBaseUrl?: string | undefined
}

/** The address a billboard's QR code opens. */
export function qrTargetUrl(baseUrl: string, slug: string, deviceId: string): string {
  const base = baseUrl.replace(/\/+$/, '')
  return `${base}/${encodeURIComponent(slug)}?device=${encodeURIComponent(deviceId)}`
}

// Quartile error correction: a printed code on a billboard gets scratched and partly covered.
const QR_OPTIONS = { errorCorrectionLevel: 'Q', margin: 2 } as const

export function qrRoutes(router: ApiRouter, deps: QrDeps) {
  const target = async (
    slug: string,
    deviceId: string,
    requestUrl: string,
  ): Promise<string | null> => {
    const [row] = await deps.db
      .select({ deviceId: eventDevices.deviceId })
      .from(eventDevices)
      .where(and(eq(eventDevices.eventSlug, slug), eq(eventDevices.deviceId, deviceId)))
      .limit(1)
    if (!row) return null
    return qrTargetUrl(deps.publicBaseUrl ?? new URL(requestUrl).origin, slug, deviceId)
  }
  const notFound = (slug: string, deviceId: string) => ({
    errors: [`No billboard ${deviceId} in event ${slug}`],
  })

  router.handle(spotlight.qrPng, async ({ c, params }) => {
    const { slug, deviceId } = params
    const url = await target(slug, deviceId, c.req.url)
    if (!url) return c.json(notFound(slug, deviceId), 404)
    const png = await QRCode.toBuffer(url, { ...QR_OPTIONS, type: 'png', width: 512 })
    return c.body(new Uint8Array(png), 200, {
      'Content-Type': 'image/png',
      'Cache-Control': 'public, max-age=3600',
    })
  })

  router.handle(spotlight.qrSvg, async ({ c, params }) => {
    const { slug, deviceId } = params
    const url = await target(slug, deviceId, c.req.url)
    if (!url) return c.json(notFound(slug, deviceId), 404)
    const svg = await QRCode.toString(url, { ...QR_OPTIONS, type: 'svg' })
    return c.body(svg, 200, {
      'Content-Type': 'image/svg+xml; charset=utf-8',
      'Cache-Control': 'public, max-age=3600',
    })
  })
}
