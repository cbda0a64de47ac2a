import type { FeatureFlags } from '../../contract/index.ts'
import { err, ok, type Result } from '../platform/result.ts'

// spec §3 and §7 call 6: one set of flags per environment (local, dev, prod); the app picks the set
// of the environment it runs in. show-footer is the spec's; the others switch parts of the shop.
export const FEATURE_FLAGS: FeatureFlags = {
  local: { 'show-footer': true, 'video-shouts': true, 'street-view': true, 'promo-codes': true },
  dev: { 'show-footer': true, 'video-shouts': true, 'street-view': true, 'promo-codes': true },
  prod: { 'show-footer': false, 'video-shouts': true, 'street-view': false, 'promo-codes': true },
}

/** The shop is the only product with flags so far (spec §7 call 6: /feature-flags/shouts). */
export const FLAGGED_PRODUCT = 'shouts'

export type MetaError = { code: 'feature_flags_not_found'; product: string }

export function featureFlagsOf(product: string): Result<FeatureFlags, MetaError> {
  return product === FLAGGED_PRODUCT
    ? ok(FEATURE_FLAGS)
    : err({ code: 'feature_flags_not_found', product })
}
