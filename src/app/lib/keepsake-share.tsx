import { Trans, useLingui } from '@lingui/react/macro'
import { useEffect, useState } from 'react'
import * as v from 'valibot'
import { pathOf } from '../../contract/endpoint'
import { type ShareInfo, share as shareApi } from '../../contract/share'
import type { ProblemData } from '../../domain/problems'
import { isLocale } from '../locale/i18n'
import { Button } from '../ui/button'
import { Notice } from '../ui/notice'
import { ProblemList } from '../ui/problem-list'
import { ApiError, apiRequest, callApi } from './api'

// "Share my shout" on the order's page (api-v1 "Keepsake pages"): the order's public page, made on
// the first tap and shared with the Web Share API, else its address copied; its picture to download;
// and a way to stop sharing. Its own chunk, loaded by the confirmation page for a confirmed order.

type OrderRef = { eventSlug: string; guid: string }
type Note = 'copied' | 'copy-failed' | 'stopped' | 'offline' | { problems: ProblemData[] }

export default function KeepsakeShare({ eventSlug, guid }: OrderRef) {
  const { t, i18n } = useLingui()
  const [share, setShare] = useState<ShareInfo | null>(null)
  const [busy, setBusy] = useState(false)
  const [note, setNote] = useState<Note | null>(null)

  useEffect(() => {
    let live = true
    callApi(shareApi.current, { params: { eventSlug, guid } })
      .then((found) => live && setShare(found.share))
      .catch(() => {})
    return () => {
      live = false
    }
  }, [eventSlug, guid])

  const failed = (error: unknown) =>
    setNote(
      error instanceof ApiError && error.problems.length > 0
        ? { problems: error.problems }
        : 'offline',
    )

  const shareIt = async () => {
    setNote(null)
    setBusy(true)
    let made = share
    try {
      if (!made) {
        const locale = isLocale(i18n.locale) ? i18n.locale : 'en'
        made = await callApi(shareApi.create, { params: { eventSlug, guid }, body: { locale } })
        setShare(made)
      }
    } catch (error) {
      failed(error)
      return
    } finally {
      setBusy(false)
    }
    const url = new URL(made.path, window.location.origin).toString()
    if (typeof navigator.share === 'function') {
      try {
        await navigator.share({ title: t`My shout`, text: t`My message on a billboard`, url })
        return
      } catch (error) {
        // the shopper closed the sheet: nothing to say
        if (error instanceof DOMException && error.name === 'AbortError') return
      }
    }
    try {
      await navigator.clipboard.writeText(url)
      setNote('copied')
    } catch {
      setNote('copy-failed')
    }
  }

  const stop = async () => {
    setNote(null)
    setBusy(true)
    try {
      await apiRequest(pathOf(shareApi.revoke, { eventSlug, guid }), v.unknown(), {
        method: 'DELETE',
      })
      setShare(null)
      setNote('stopped')
    } catch (error) {
      failed(error)
    } finally {
      setBusy(false)
    }
  }

  const address = share ? new URL(share.path, window.location.origin).toString() : null
  return (
    <>
      <Button
        kind="pink"
        size="large"
        icon="upload"
        onClick={() => void shareIt()}
        disabled={busy}
        aria-busy={busy}
      >
        <Trans>Share my shout</Trans>
      </Button>
      {share && address ? (
        <div className="keepsake-share">
          <p>
            <Trans>
              Your shout's page: <a href={share.path}>{address}</a>
            </Trans>
          </p>
          <a
            className="btn btn--white btn--medium btn--side-center"
            href={share.imagePath}
            download
          >
            <span className="btn__label">
              <Trans>Download the keepsake picture</Trans>
            </span>
          </a>
          <Button kind="link" onClick={() => void stop()} disabled={busy}>
            <Trans>Stop sharing</Trans>
          </Button>
        </div>
      ) : null}
      {note ? <ShareNote note={note} address={address} /> : null}
    </>
  )
}

function ShareNote({ note, address }: { note: Note; address: string | null }) {
  if (typeof note === 'object')
    return (
      <Notice tone="error">
        <ProblemList problems={note.problems} />
      </Notice>
    )
  if (note === 'copied')
    return (
      <p role="status">
        <Trans>The link to your shout's page is copied: paste it anywhere.</Trans>
      </p>
    )
  if (note === 'stopped')
    return (
      <p role="status">
        <Trans>Sharing stopped: the page is gone.</Trans>
      </p>
    )
  if (note === 'copy-failed')
    return (
      <p role="status">
        <Trans>Copy this link to share your shout: {address}</Trans>
      </p>
    )
  return (
    <Notice tone="error">
      <Trans>Sharing could not be changed. Check your connection and try again.</Trans>
    </Notice>
  )
}
