import { Trans, useLingui } from '@lingui/react/macro'
import { useRouterState } from '@tanstack/react-router'
import { useEffect } from 'react'
import { useSnapshot } from 'valtio'
import { useHydrated } from '../../lib/hydration'
import type { Locale } from '../../locale/i18n'
import { setMenuOpen, uiStore } from '../../stores/ui'
import { LanguageSwitcher } from '../../ui/language-switcher'
import { MARKETING_PAGES, marketingUrl } from './marketing-links'

export function Header() {
  const { t, i18n } = useLingui()
  const { menuOpen } = useSnapshot(uiStore)
  const pathname = useRouterState({ select: (s) => s.location.pathname })
  const locale = i18n.locale as Locale
  // no handler in the server's HTML until the app takes it over
  const hydrated = useHydrated()

  // spec §2: the menu closes on every route change
  useEffect(() => {
    void pathname
    setMenuOpen(false)
  }, [pathname])

  useEffect(() => {
    if (!menuOpen) return
    const onKey = (e: KeyboardEvent) => {
      if (e.key === 'Escape') setMenuOpen(false)
    }
    window.addEventListener('keydown', onKey)
    return () => window.removeEventListener('keydown', onKey)
  }, [menuOpen])

  return (
    <header className="header">
      <div className="header__bar">
        {/* spec §2: a back arrow exists but is disabled in the order flow */}
        <button type="button" className="header__back" disabled aria-label={t`Back`}>
          <svg viewBox="0 0 24 24" width="22" height="22" aria-hidden="true">
            <path d="M15 5l-7 7 7 7" fill="none" stroke="currentColor" strokeWidth="2" />
          </svg>
        </button>
        <a className="header__logo" href={marketingUrl(locale)}>
          <span className="logo__mark" aria-hidden="true">
            ◆
          </span>
          <span className="logo__word">Shouts</span>
          <span className="visually-hidden">
            <Trans>Shouts home</Trans>
          </span>
        </a>
        <div className="header__tools">
          <LanguageSwitcher />
          <button
            type="button"
            className="header__burger"
            aria-expanded={menuOpen}
            aria-controls="main-menu"
            aria-label={menuOpen ? t`Close menu` : t`Open menu`}
            disabled={!hydrated}
            onClick={() => setMenuOpen(!menuOpen)}
          >
            <svg viewBox="0 0 24 24" width="24" height="24" aria-hidden="true">
              {menuOpen ? (
                <path d="M6 6l12 12M18 6 6 18" stroke="currentColor" strokeWidth="2" />
              ) : (
                <path d="M4 7h16M4 12h16M4 17h16" stroke="currentColor" strokeWidth="2" />
              )}
            </svg>
          </button>
        </div>
      </div>
      <nav
        id="main-menu"
        className={`menu ${menuOpen ? 'menu--open' : ''}`}
        aria-label={t`Main menu`}
        hidden={!menuOpen}
      >
        <ul>
          {MARKETING_PAGES.map((page) => (
            <li key={page.path}>
              <a href={marketingUrl(locale, page.path)}>{i18n._(page.label)}</a>
            </li>
          ))}
        </ul>
      </nav>
    </header>
  )
}
