import { Trans, useLingui } from '@lingui/react/macro'
import { useCallback, useRef, useState } from 'react'
import type { Campaign } from '../../../contract/advertisers'
import { advertiserBilling } from '../../../contract/advertisers-billing'
import type { ProblemData } from '../../../domain/problems'
import { CardForm, type SaveCard } from '../../features/advertisers/card-form'
import { problemsOfError } from '../../features/advertisers/problems'
import { callAsAdvertiser } from '../../features/advertisers/session'
import { Button } from '../../ui/button'
import { Notice } from '../../ui/notice'
import { ProblemList } from '../../ui/problem-list'

const REPLACEABLE = new Set<Campaign['state']>(['Booked', 'Approved', 'Live', 'Paused'])

/**
 * The campaign's card, replaced through the shop's payment flow (a new SetupIntent: Stripe's form,
 * its 3-D Secure included, or the local test cards). A day declined earlier is charged once on the
 * new card at the next settlement; a campaign paused for it may then be resumed.
 */
export function ReplaceCard({
  campaign,
  onReplaced,
}: {
  campaign: Campaign
  onReplaced: (campaign: Campaign) => void
}) {
  const { t } = useLingui()
  const [open, setOpen] = useState(false)
  const [busy, setBusy] = useState(false)
  const [cardError, setCardError] = useState<string | null>(null)
  const [problems, setProblems] = useState<ProblemData[]>([])
  const [done, setDone] = useState(false)
  const saveCard = useRef<SaveCard | null>(null)
  const onCardReady = useCallback((save: SaveCard | null) => {
    saveCard.current = save
  }, [])

  if (!REPLACEABLE.has(campaign.state)) return null
  const replace = async () => {
    const save = saveCard.current
    if (!save) return
    setBusy(true)
    setProblems([])
    setCardError(null)
    try {
      const saved = await save()
      if (!saved.ok) {
        setCardError(saved.message)
        return
      }
      onReplaced(
        await callAsAdvertiser(advertiserBilling.replaceCard, {
          params: { campaignId: campaign.campaignId },
          body: saved.card,
        }),
      )
      setDone(true)
      setOpen(false)
    } catch (error) {
      setProblems(problemsOfError(error))
    } finally {
      setBusy(false)
    }
  }

  return (
    <section className="card" aria-labelledby="adv-card">
      <h2 className="section-title" id="adv-card">
        <Trans>Card</Trans>
      </h2>
      {done ? (
        <Notice tone="success">
          <Trans>
            The new card is saved. The next days are charged to it, and a day declined earlier is
            charged to it once.
          </Trans>
        </Notice>
      ) : null}
      {open ? (
        <>
          <CardForm onReady={onCardReady} />
          {cardError ? (
            <p className="field__error" role="alert">
              {cardError}
            </p>
          ) : null}
          {problems.length > 0 ? <ProblemList problems={problems} /> : null}
          <div className="adv__actions">
            <Button kind={busy ? 'loading' : 'orange'} onClick={() => void replace()}>
              <Trans>Save the new card</Trans>
            </Button>
            <Button kind="white" onClick={() => setOpen(false)}>
              {t`Keep the current card`}
            </Button>
          </div>
        </>
      ) : (
        <div className="adv__actions">
          <Button kind="white" onClick={() => setOpen(true)}>
            <Trans>Replace the card</Trans>
          </Button>
        </div>
      )}
    </section>
  )
}
