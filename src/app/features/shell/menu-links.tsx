import { useLingui } from '@lingui/react/macro'
import { Link } from '@tanstack/react-router'
import { useEffect } from 'react'
import type { Locale } from '../../locale/i18n'
import { setMenuOpen } from '../../stores/ui'
import { MARKETING_PAGES } from '../../ui/marketing-pages'

/** spec §2: the menu's links, every marketing page (the footer shows fewer on a phone). Mounted while
 * the menu is open: Escape closes it. */
export function MenuLinks() {
  const { i18n, t } = useLingui()
  const locale = i18n.locale as Locale
  useEffect(() => {
    const onKey = (e: KeyboardEvent) => {
      if (e.key === 'Escape') setMenuOpen(false)
    }
    window.addEventListener('keydown', onKey)
    return () => window.removeEventListener('keydown', onKey)
  }, [])
  return (
    <ul>
      {MARKETING_PAGES.map((page) => (
        <li key={page.label.id}>
          <a href={page.href(locale)}>{i18n._(page.label)}</a>
        </li>
      ))}
      <li>
        {/* the shop's own page for brands and businesses (the app's, not the marketing site's) */}
        <Link to="/advertise" onClick={() => setMenuOpen(false)}>
          {t`Advertise`}
        </Link>
      </li>
    </ul>
  )
}
