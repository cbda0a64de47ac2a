import { createHash } from 'node:crypto'
import QRCode from 'qrcode'
import type { ReactNode } from 'react'
import type { HouseCard } from '../../contract/index.ts'
import { formatMoney } from '../../domain/money.ts'
import { loadFonts } from '../content/fonts.ts'
import { imageWork } from '../content/limit.ts'
import { translate } from '../platform/catalogs.ts'

// The house card as a PNG, for SMIL players, which show images, not our web page: the same
// data and texts as the web player's card (src/app/player/house-card.tsx), read from the same Lingui
// catalogs, drawn with the content renderer's tools (satori and resvg, the bundled fonts) at the
// billboard's size. The QR code opens the shop on this billboard.

type Node = { type: string; props: Record<string, unknown> }
const el = (
  type: string,
  style: Record<string, unknown>,
  children?: unknown,
  extra = {},
): Node => ({
  type,
  props: { style, children, ...extra },
})

/**
 * A short hash of what the card shows: the SMIL playlist links the card with it (`?v=`), so a card
 * whose price or event changed is a new address, which every player fetches (signageOS refreshes a
 * file only by its Last-Modified, which a drawn card has none of).
 */
export function houseCardVersion(house: HouseCard, widthPx: number, heightPx: number): string {
  return createHash('sha256')
    .update(JSON.stringify([house, widthPx, heightPx]))
    .digest('base64url')
    .slice(0, 16)
}

export async function renderHouseCardPng(
  house: HouseCard,
  widthPx: number,
  heightPx: number,
): Promise<Buffer> {
  const price = formatMoney(house.valueCentsPerSlot, {
    currency: house.currency,
    locale: house.locale,
  })
  const message = translate(house.locale, 'Your message here')
  const priceLine = translate(house.locale, '{price} per shout · scan to book this screen', {
    price,
  })
  // the code the shop's home page asks for, for a phone that cannot scan
  const codeLine = translate(house.locale, 'Event code: {code}', { code: house.eventSlug })
  const side = Math.round(Math.min(widthPx, heightPx) * 0.8)
  const qr = await QRCode.toDataURL(house.shopUrl, {
    errorCorrectionLevel: 'Q',
    margin: 2,
    width: side,
  })
  const unit = Math.min(widthPx, heightPx) / 100
  const tree = el(
    'div',
    {
      width: widthPx,
      height: heightPx,
      display: 'flex',
      alignItems: 'center',
      justifyContent: 'space-evenly',
      backgroundImage: 'linear-gradient(135deg, #c2185b, #c2410c)',
      color: '#ffffff',
      fontFamily: 'Noto Sans',
      padding: unit * 4,
    },
    [
      el(
        'div',
        { display: 'flex', flexDirection: 'column', maxWidth: widthPx - side - unit * 12 },
        [
          el('div', { fontSize: unit * 6 }, house.eventName),
          el('div', { fontSize: unit * 13, fontWeight: 700, lineHeight: 1.05 }, message),
          el('div', { fontSize: unit * 6 }, priceLine),
          el('div', { fontSize: unit * 4.5, marginTop: unit * 2 }, codeLine),
        ],
      ),
      el('img', { width: side, height: side }, undefined, { src: qr, width: side, height: side }),
    ],
  )
  return imageWork(async () => {
    const satori = (await import('satori')).default
    const svg = await satori(tree as unknown as ReactNode, {
      width: widthPx,
      height: heightPx,
      fonts: await loadFonts(),
    })
    const { renderAsync } = await import('@resvg/resvg-js')
    const image = await renderAsync(svg, {
      fitTo: { mode: 'original' },
      font: { loadSystemFonts: false },
    })
    return image.asPng()
  })
}
