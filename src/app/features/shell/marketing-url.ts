import { MARKETING_SITE_URL } from '../../lib/config'
import { type Locale, localePrefix, withLocalePrefix } from '../../locale/i18n'

// spec §2: the logo, the menu and the footer go to the localized marketing site when the shop has one
// (the prefix is empty for English and /de or /fr otherwise); else the logo goes to the shop's home.
export function marketingUrl(locale: Locale, path = ''): string {
  if (!MARKETING_SITE_URL) return withLocalePrefix('/', locale)
  return `${MARKETING_SITE_URL}${localePrefix(locale)}${path ? `/${path}` : ''}`
}
