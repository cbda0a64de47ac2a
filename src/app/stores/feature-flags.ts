import { meta } from '../../contract/meta'
import { callApi } from '../lib/api'
import { environmentForHost } from '../lib/config'
import { uiStore } from './ui'

// spec §7 call 6: the feature flags of the product, fetched at startup; one set per environment.
export async function loadFeatureFlags(): Promise<void> {
  try {
    const flags = await callApi(meta.featureFlags, { params: { product: 'shouts' } })
    uiStore.featureFlags = flags[environmentForHost(window.location.host)]
  } catch {
    uiStore.featureFlags = {}
  }
}
