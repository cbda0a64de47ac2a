import { FeatureFlagsSchema } from '../../contract/meta'
import { uiStore } from '../stores/ui'
import { apiGet } from './api'
import { environmentForHost } from './config'

// spec §7 call 6: the feature flags of the product, fetched at startup; one set per environment.
export async function loadFeatureFlags(): Promise<void> {
  try {
    const flags = await apiGet('/feature-flags/shouts', FeatureFlagsSchema)
    uiStore.featureFlags = flags[environmentForHost(window.location.host)]
  } catch {
    uiStore.featureFlags = {}
  }
}
