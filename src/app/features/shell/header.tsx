import { Trans, useLingui } from '@lingui/react/macro'
import { useRouterState } from '@tanstack/react-router'
import { type ComponentType, Suspense, useEffect } from 'react'
import { useSnapshot } from 'valtio'
import { useHydrated } from '../../lib/hydration'
import { loadWhenIdle } from '../../lib/idle'
import { optionalPart } from '../../lib/optional-part'
import { type Locale, withWholeCatalog } from '../../locale/i18n'
import { setMenuOpen, uiStore } from '../../stores/ui'
import { LanguageSwitcher } from '../../ui/language-switcher'
import { marketingUrl } from './marketing-url'

// The menu's links open on a tap, so they are not the first screen's: their code and their texts
// (in the rest of the catalog) come once the page has been idle, or at once if the menu opens first.
// Offline before the service worker holds the app the menu stays empty: its links lead to the
// marketing site, which needs the network anyway.
let menuLinks: Promise<ComponentType> | null = null
function loadMenuLinks(): Promise<ComponentType> {
  if (!menuLinks) {
    menuLinks = withWholeCatalog(() => import('./menu-links'))().then((m) => m.MenuLinks)
    menuLinks.catch(() => {
      menuLinks = null
    })
  }
  return menuLinks
}
const MenuLinks = optionalPart(loadMenuLinks)

export function Header() {
  const { t, i18n } = useLingui()
  const { menuOpen } = useSnapshot(uiStore)
  const pathname = useRouterState({ select: (s) => s.location.pathname })
  const locale = i18n.locale as Locale
  // no handler in the server's HTML until the app takes it over
  const hydrated = useHydrated()

  useEffect(() => {
    if (hydrated) loadWhenIdle(loadMenuLinks).catch(() => {})
  }, [hydrated])

  // spec §2: the menu closes on every route change
  useEffect(() => {
    void pathname
    setMenuOpen(false)
  }, [pathname])

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
        {menuOpen ? (
          <Suspense fallback={null}>
            <MenuLinks />
          </Suspense>
        ) : null}
      </nav>
    </header>
  )
}
