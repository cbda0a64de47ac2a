import { Trans, useLingui } from '@lingui/react/macro'
import { Link, useRouter, useRouterState } from '@tanstack/react-router'
import { Suspense, useId, useState } from 'react'
import { type OperatorInfo, ops } from '../../contract/ops/orders'
import { type Locale, locales, withLocalePrefix } from '../locale/i18n'
import { callNoContent } from './api'
import { OperatorContext } from './operator'
import { Notice, usePageTitle } from './ops-frame'
import { mayOpen, OPS_PAGES, type OpsPageDef } from './pages'
import { signInHref } from './sign-in-link'

const LANGUAGE_NAMES: Record<Locale, string> = { en: 'English', fr: 'Français', de: 'Deutsch' }

/**
 * The signed-in console: the navigation its role may use, the operator and sign-out, the
 * languages; then the page. On a phone the navigation is a menu behind a button that names the page
 * open; on a desk a column beside the page (ops.css).
 */
export function ConsoleLayout({ operator, page }: { operator: OperatorInfo; page: OpsPageDef }) {
  const { t, i18n } = useLingui()
  const router = useRouter()
  const location = useRouterState({ select: (s) => s.location })
  const [signOutFailed, setSignOutFailed] = useState(false)
  // the navigation on a phone: a menu, closed until asked for, closed again once a page is chosen
  const [menuOpen, setMenuOpen] = useState(false)
  const navId = useId()
  const allowed = mayOpen(operator.role, page)
  const Page = page.component
  const pages = OPS_PAGES.filter((p) => p.label && mayOpen(operator.role, p))
  const roleName = operator.role === 'admin' ? t`Administrator` : t`Reviewer`

  const signOut = async () => {
    try {
      await callNoContent(ops.signOut)
      await router.navigate({ href: signInHref({ signedOut: true }) })
    } catch {
      setSignOutFailed(true)
    }
  }

  return (
    <OperatorContext.Provider value={operator}>
      <div className="ops-console">
        <header className="ops-bar">
          <p className="ops-bar__brand">
            <Trans>Shouts operations</Trans>
          </p>
          <div className="ops-bar__who">
            <span className="ops-bar__email">{operator.email}</span>
            <span className="ops-bar__role">{roleName}</span>
          </div>
          <button type="button" className="ops-button ops-button--quiet" onClick={signOut}>
            <Trans>Sign out</Trans>
          </button>
          <button
            type="button"
            className="ops-button ops-button--quiet ops-bar__menu"
            aria-expanded={menuOpen}
            aria-controls={navId}
            onClick={() => setMenuOpen((open) => !open)}
          >
            <Trans>Menu</Trans>
            {page.label ? <span className="ops-bar__page"> · {i18n._(page.label)}</span> : null}
          </button>
        </header>
        <nav
          id={navId}
          className="ops-nav"
          data-open={menuOpen ? 'true' : 'false'}
          aria-label={t`Console`}
        >
          <ul className="ops-nav__list">
            {pages.map((p) => (
              <li key={p.path}>
                <Link
                  to="/ops/$"
                  params={{ _splat: p.path }}
                  className="ops-nav__link"
                  activeProps={{ 'aria-current': 'page' }}
                  onClick={() => setMenuOpen(false)}
                >
                  {p.label ? i18n._(p.label) : p.path}
                </Link>
              </li>
            ))}
          </ul>
          <ul className="ops-nav__languages" aria-label={t`Language`}>
            {locales.map((locale) => (
              <li key={locale}>
                {/* a whole page load in the other language: its catalogs load with it */}
                <a
                  href={`${withLocalePrefix(location.pathname, locale)}${location.searchStr}`}
                  hrefLang={locale}
                  lang={locale}
                  aria-current={locale === i18n.locale ? 'true' : undefined}
                  className="ops-nav__language"
                >
                  {LANGUAGE_NAMES[locale]}
                </a>
              </li>
            ))}
          </ul>
        </nav>
        <main className="ops-main">
          {signOutFailed ? (
            <Notice tone="error">
              <Trans>Signing out failed. Check the connection and try again.</Trans>
            </Notice>
          ) : null}
          {allowed ? (
            <Suspense fallback={<Loading />}>
              <Page />
            </Suspense>
          ) : (
            <NotAllowed />
          )}
        </main>
      </div>
    </OperatorContext.Provider>
  )
}

/** While a page of its own chunk loads. */
function Loading() {
  return (
    <p aria-busy="true">
      <Trans>Loading…</Trans>
    </p>
  )
}

/** A page the operator's role may not open (the API answers 403 to it too). */
function NotAllowed() {
  const { t } = useLingui()
  usePageTitle(t`Not allowed`)
  return (
    <section className="ops-page">
      <h1 className="ops-page__title">
        <Trans>Not allowed</Trans>
      </h1>
      <Notice tone="error">
        <Trans>This page is for administrators. Ask an administrator if you need it.</Trans>
      </Notice>
    </section>
  )
}
