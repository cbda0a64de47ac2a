import type { FeatureFlags } from '../../contract/meta'

// Configuration from the build environment (Vite's import.meta.env), with offline-safe defaults.

/**
 * A marketing site the header logo, menu and footer link to (spec §2); without one they link to the
 * shop's own pages (docs/pages.md).
 */
export const MARKETING_SITE_URL: string | null = import.meta.env.VITE_MARKETING_SITE_URL || null

/** The production host (spec §9: production detected when the host contains the product domain). */
export const PRODUCTION_DOMAIN: string = import.meta.env.VITE_PRODUCTION_DOMAIN || 'shouts.example'

export const SUPPORT_EMAIL: string = import.meta.env.VITE_SUPPORT_EMAIL || 'support@shouts.example'

/** The environments the server's feature flags are given for (spec §7 call 6). */
export type AppEnvironment = keyof FeatureFlags

/** spec §9: the environment is chosen by host. */
export function environmentForHost(host: string): AppEnvironment {
  if (/^(localhost|127\.|\[::1\]|0\.0\.0\.0)/.test(host)) return 'local'
  if (host.includes(PRODUCTION_DOMAIN)) return 'prod'
  return 'dev'
}
