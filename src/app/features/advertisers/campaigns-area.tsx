import { useLingui } from '@lingui/react/macro'
import { useNavigate, useParams } from '@tanstack/react-router'
import { useEffect, useState } from 'react'
import { useSnapshot } from 'valtio'
import { CampaignPage } from './campaign-page'
import { CampaignsPage } from './campaigns-page'
import { NewCampaignPage } from './new-campaign-page'
import { advertiserSession, ensureSession } from './session'

/**
 * The signed-in pages under `/campaigns/…`. Without a session (none in this tab, and the refresh
 * cookie ended or absent) the browser goes to /account, and comes back here after signing in.
 */
export function CampaignsArea() {
  const { t } = useLingui()
  const navigate = useNavigate()
  const { _splat } = useParams({ from: '/_default/campaigns/$' })
  const { account } = useSnapshot(advertiserSession)
  const [checked, setChecked] = useState(false)
  useEffect(() => {
    let live = true
    ensureSession()
      .catch(() => null)
      .then((found) => {
        if (!live) return
        if (found) setChecked(true)
        else
          void navigate({ to: '/account', search: { next: `/campaigns/${_splat ?? ''}` } as never })
      })
    return () => {
      live = false
    }
  }, [navigate, _splat])

  if (!checked || !account) {
    return (
      <main className="page" id="main" aria-busy="true" aria-label={t`Loading`}>
        <div className="skeleton" style={{ height: 240 }} />
      </main>
    )
  }
  const path = (_splat ?? '').replace(/\/+$/, '')
  if (path === '') return <CampaignsPage />
  if (path === 'new') return <NewCampaignPage />
  return <CampaignPage campaignId={path} />
}
