import type { MessageDescriptor } from '@lingui/core'
import { msg } from '@lingui/core/macro'
import { MARKETING_SITE_URL } from '../../lib/config'
import { type Locale, localePrefix } from '../../locale/i18n'

// spec §2: menu and footer links go to the localized marketing site; the prefix is empty for
// English and /de or /fr otherwise.
export const MARKETING_PAGES: { path: string; label: MessageDescriptor; mobile: boolean }[] = [
  { path: 'occasions', label: msg`Create a Shout`, mobile: true },
  { path: 'about', label: msg`About`, mobile: true },
  { path: 'faqs', label: msg`FAQs`, mobile: true },
  { path: 'contact', label: msg`Contact`, mobile: true },
  { path: 'press', label: msg`Press`, mobile: false },
  { path: 'terms-conditions', label: msg`Terms & Conditions`, mobile: false },
  { path: 'privacy-policy', label: msg`Privacy Policy`, mobile: false },
]

export function marketingUrl(locale: Locale, path = ''): string {
  return `${MARKETING_SITE_URL}${localePrefix(locale)}${path ? `/${path}` : ''}`
}
