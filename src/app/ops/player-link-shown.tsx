import { Trans, useLingui } from '@lingui/react/macro'
import { useEffect, useState } from 'react'
import { Code } from './code'

// A player link just made (shown once: only its hash is kept): the address as a code that tells its
// characters apart, a button that copies it, and a QR code of it, so a screen is set up from a phone
// in the field by pointing the phone's camera at the console. The QR library loads with this panel.

export function PlayerLinkShown({ url }: { url: string }) {
  const { t } = useLingui()
  const [qr, setQr] = useState<string | null>(null)
  const [copied, setCopied] = useState<'yes' | 'no' | null>(null)
  useEffect(() => {
    let live = true
    import('qrcode')
      .then((QRCode) => QRCode.toString(url, { type: 'svg', errorCorrectionLevel: 'M', margin: 2 }))
      .then((svg) => {
        if (live) setQr(`data:image/svg+xml;charset=utf-8,${encodeURIComponent(svg)}`)
      })
      // the address and its copy button are still there
      .catch(() => undefined)
    return () => {
      live = false
    }
  }, [url])
  const copy = async () => {
    try {
      await navigator.clipboard.writeText(url)
      setCopied('yes')
    } catch {
      setCopied('no')
    }
  }
  return (
    <div className="ops-link-shown">
      <figure className="ops-link-shown__url">
        <figcaption className="visually-hidden">
          <Trans>New player link</Trans>
        </figcaption>
        <Code>{url}</Code>
      </figure>
      <p className="ops-link-shown__actions">
        <button type="button" className="ops-button" onClick={copy}>
          <Trans>Copy the link</Trans>
        </button>{' '}
        <span role="status">
          {copied === 'yes' ? (
            <Trans>Copied.</Trans>
          ) : copied === 'no' ? (
            <Trans>Copying is not allowed here: select the link and copy it.</Trans>
          ) : null}
        </span>
      </p>
      {qr ? (
        <img
          className="ops-link-shown__qr"
          src={qr}
          width={176}
          height={176}
          alt={t`QR code of the player link: open it on the billboard's screen`}
        />
      ) : null}
    </div>
  )
}
