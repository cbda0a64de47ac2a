import { useLingui } from '@lingui/react/macro'
import { useRouter, useRouterState } from '@tanstack/react-router'
import { useEffect, useRef, useState } from 'react'
import { useHydrated } from '../lib/hydration'
import {
  activateLocale,
  currentLocale,
  type Locale,
  locales,
  withLocalePrefix,
  writeLocaleCookie,
} from '../locale/i18n'
import { Flag, flagFor } from './flags'

const NAMES: Record<Locale, string> = { en: 'English', fr: 'Français', de: 'Deutsch' }

/** spec §2: the current locale and the others as flags. */
export function LanguageSwitcher() {
  const { t, i18n } = useLingui()
  const router = useRouter()
  const location = useRouterState({ select: (s) => s.location })
  const [open, setOpen] = useState(false)
  const ref = useRef<HTMLDivElement>(null)
  const active = (i18n.locale as Locale) ?? currentLocale()
  // no handler in the server's HTML until the app takes it over
  const hydrated = useHydrated()

  useEffect(() => {
    if (!open) return
    const onDown = (e: MouseEvent) => {
      if (!ref.current?.contains(e.target as Node)) setOpen(false)
    }
    document.addEventListener('mousedown', onDown)
    return () => document.removeEventListener('mousedown', onDown)
  }, [open])

  const choose = async (locale: Locale) => {
    setOpen(false)
    if (locale === active) return
    writeLocaleCookie(locale)
    await activateLocale(locale)
    router.history.push(
      `${withLocalePrefix(location.pathname, locale)}${location.searchStr}${location.hash ? `#${location.hash}` : ''}`,
    )
  }

  return (
    <div className="lang" ref={ref}>
      <button
        type="button"
        className="lang__current"
        aria-haspopup="true"
        aria-expanded={open}
        disabled={!hydrated}
        onClick={() => setOpen((o) => !o)}
      >
        <Flag code={flagFor(active)} />
        <span className="lang__code" aria-hidden="true">
          {active.toUpperCase()}
        </span>
        <span className="visually-hidden">{t`Language: ${NAMES[active]}`}</span>
      </button>
      {open ? (
        <ul className="lang__menu">
          {locales
            .filter((l) => l !== active)
            .map((locale) => (
              <li key={locale}>
                <button
                  type="button"
                  lang={locale}
                  className="lang__option"
                  onClick={() => void choose(locale)}
                >
                  <Flag code={flagFor(locale)} />
                  <span>{NAMES[locale]}</span>
                </button>
              </li>
            ))}
        </ul>
      ) : null}
    </div>
  )
}
