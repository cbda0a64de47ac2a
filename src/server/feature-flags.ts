import type { FeatureFlags } from '../contract/index.ts'

// spec §3 and §7 call 6: one set of flags per environment (local, dev, prod); the app picks the set
// of the environment it runs in. show-footer is the spec's; the others switch parts of the shop.
export const FEATURE_FLAGS: FeatureFlags = {
  local: { 'show-footer': true, 'video-shouts': true, 'street-view': true, 'promo-codes': true },
  dev: { 'show-footer': true, 'video-shouts': true, 'street-view': true, 'promo-codes': true },
  prod: { 'show-footer': false, 'video-shouts': true, 'street-view': false, 'promo-codes': true },
}
