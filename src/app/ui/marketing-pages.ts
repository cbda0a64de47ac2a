import type { MessageDescriptor } from '@lingui/core'
import { msg } from '@lingui/core/macro'
import { type ShopPage, shopPagePath } from '../../contract/pages'
import { MARKETING_SITE_URL } from '../lib/config'
import { type Locale, localePrefix, withLocalePrefix } from '../locale/i18n'

// spec §2: the pages the menu and the footer link to: the shop's own (docs/pages.md), or the
// marketing site's when the shop has one. Both load lazily, so these labels are in the rest of the
// catalog (src/locale/catalog-parts.ts), and the list is in the chunk of the shop's later components
// (vite.config.ts), not a chunk of its own. A new link is one entry: its label, whether a phone's
// footer shows it, and its address in a language.

export type SiteLink = {
  label: MessageDescriptor
  mobile: boolean
  href: (locale: Locale) => string
}

/** The marketing site's page of a path in a language (spec §2: no prefix for English). */
const marketingUrl = (locale: Locale, path: string) =>
  `${MARKETING_SITE_URL}${localePrefix(locale)}/${path}`

/** A page of the shop, or its marketing site's page of that path when the shop has a site. */
const sitePage =
  (page: ShopPage, marketingPath: string = page) =>
  (locale: Locale) =>
    MARKETING_SITE_URL ? marketingUrl(locale, marketingPath) : shopPagePath(page, locale)

export const MARKETING_PAGES: SiteLink[] = [
  {
    label: msg`Create a Shout`,
    mobile: true,
    href: (locale) =>
      MARKETING_SITE_URL ? marketingUrl(locale, 'occasions') : withLocalePrefix('/', locale),
  },
  { label: msg`About`, mobile: true, href: sitePage('about') },
  { label: msg`FAQs`, mobile: true, href: sitePage('faqs') },
  { label: msg`Contact`, mobile: true, href: sitePage('contact') },
  { label: msg`Press`, mobile: false, href: sitePage('press') },
  { label: msg`Terms & Conditions`, mobile: false, href: sitePage('terms', 'terms-conditions') },
  { label: msg`Privacy Policy`, mobile: false, href: sitePage('privacy-policy') },
  { label: msg`Content policy`, mobile: false, href: sitePage('content-policy') },
]
