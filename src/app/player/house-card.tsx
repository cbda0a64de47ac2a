import { Trans, useLingui } from '@lingui/react/macro'
import QRCode from 'qrcode'
import { type CSSProperties, useEffect, useState } from 'react'
import type { HouseCard as HouseCardData } from '../../contract/player'
import { formatMoney } from '../../domain/money'

// What the screen shows between plays: the event, "Your message here" in the billboard's
// language, the price of a shout and a QR code that opens the shop on this billboard (the QR entry
// `/{event}?device={deviceId}`): the billboard sells its own next slot. The QR code is made here, in
// the browser, so the card shows offline too.

const card: CSSProperties = {
  width: '100%',
  height: '100%',
  display: 'flex',
  alignItems: 'center',
  justifyContent: 'space-evenly',
  gap: '4vmin',
  padding: '4vmin',
  boxSizing: 'border-box',
  background: 'linear-gradient(135deg, #c2185b, #c2410c)',
  color: '#fff',
  fontFamily: 'system-ui, sans-serif',
  textAlign: 'center',
  flexWrap: 'wrap',
}

export function HouseCard({ house }: { house: HouseCardData }) {
  const { t } = useLingui()
  const [qr, setQr] = useState<string | null>(null)
  useEffect(() => {
    let live = true
    // quartile error correction, as the printed codes (a screen is seen from afar, at an angle)
    QRCode.toString(house.shopUrl, { type: 'svg', errorCorrectionLevel: 'Q', margin: 2 }).then(
      (svg) => {
        if (live) setQr(`data:image/svg+xml;charset=utf-8,${encodeURIComponent(svg)}`)
      },
      () => undefined,
    )
    return () => {
      live = false
    }
  }, [house.shopUrl])
  const code = house.eventSlug
  const price = formatMoney(house.valueCentsPerSlot, {
    currency: house.currency,
    locale: house.locale,
  })
  return (
    <section style={card} data-testid="house-card" aria-label={house.eventName}>
      <div style={{ maxWidth: '60vmax' }}>
        <p style={{ fontSize: '4vmin', margin: 0 }}>{house.eventName}</p>
        <h1 style={{ fontSize: '9vmin', margin: '2vmin 0', lineHeight: 1.05 }}>
          <Trans>Your message here</Trans>
        </h1>
        <p style={{ fontSize: '4.5vmin', margin: 0 }}>
          <Trans>{price} per shout · scan to book this screen</Trans>
        </p>
        {/* the code the shop's home page asks for, for a phone that cannot scan */}
        <p style={{ fontSize: '3.5vmin', margin: '2vmin 0 0', opacity: 0.9 }}>
          <Trans>Event code: {code}</Trans>
        </p>
      </div>
      {qr ? (
        <img
          src={qr}
          alt={t`QR code to book this screen`}
          data-testid="house-qr"
          style={{
            width: '42vmin',
            height: '42vmin',
            background: '#fff',
            imageRendering: 'pixelated',
          }}
        />
      ) : null}
    </section>
  )
}
