import type { MessageDescriptor } from '@lingui/core'
import { msg } from '@lingui/core/macro'

// spec §2: the pages of the marketing site the menu and the footer link to. Both load lazily, so these
// labels are in the rest of the catalog (src/locale/catalog-parts.ts), and the list is in the chunk of
// the shop's later components (vite.config.ts), not a chunk of its own.
export const MARKETING_PAGES: { path: string; label: MessageDescriptor; mobile: boolean }[] = [
  { path: 'occasions', label: msg`Create a Shout`, mobile: true },
  { path: 'about', label: msg`About`, mobile: true },
  { path: 'faqs', label: msg`FAQs`, mobile: true },
  { path: 'contact', label: msg`Contact`, mobile: true },
  { path: 'press', label: msg`Press`, mobile: false },
  { path: 'terms-conditions', label: msg`Terms & Conditions`, mobile: false },
  { path: 'privacy-policy', label: msg`Privacy Policy`, mobile: false },
]
