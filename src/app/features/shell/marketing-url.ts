import { MARKETING_SITE_URL } from '../../lib/config'
import { type Locale, localePrefix } from '../../locale/i18n'

// spec §2: the logo, the menu and the footer go to the localized marketing site; the prefix is empty
// for English and /de or /fr otherwise.
export function marketingUrl(locale: Locale, path = ''): string {
  return `${MARKETING_SITE_URL}${localePrefix(locale)}${path ? `/${path}` : ''}`
}
