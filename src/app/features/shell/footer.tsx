import { Trans, useLingui } from '@lingui/react/macro'
import { Link } from '@tanstack/react-router'
import type { Locale } from '../../locale/i18n'
import { MARKETING_PAGES } from '../../ui/marketing-pages'

const SOCIAL = [
  { name: 'Instagram', href: 'https://www.instagram.com/' },
  { name: 'Facebook', href: 'https://www.facebook.com/' },
  { name: 'Snapchat', href: 'https://www.snapchat.com/' },
  { name: 'TikTok', href: 'https://www.tiktok.com/' },
  { name: 'YouTube', href: 'https://www.youtube.com/' },
]

/** spec §2: social links and copyright; the mobile footer shows fewer links. */
export function Footer() {
  const { i18n, t } = useLingui()
  const locale = i18n.locale as Locale
  const year = new Date().getFullYear()
  return (
    <footer className="footer">
      <nav aria-label={t`Footer`}>
        <ul className="footer__links">
          {MARKETING_PAGES.map((page) => (
            <li key={page.label.id} className={page.mobile ? '' : 'footer__desktop-only'}>
              <a href={page.href(locale)}>{i18n._(page.label)}</a>
            </li>
          ))}
          <li>
            <Link to="/advertise">{t`Advertise`}</Link>
          </li>
          <li>
            {/* the shop's own page, the server's (no app): what it keeps and for how long */}
            <a href={`/s/privacy/${locale}`}>{t`Your data`}</a>
          </li>
        </ul>
        <ul className="footer__social">
          {SOCIAL.map((s) => (
            <li key={s.name}>
              <a href={s.href} rel="noopener noreferrer" target="_blank">
                {s.name}
              </a>
            </li>
          ))}
        </ul>
      </nav>
      <p className="footer__copy">
        <Trans>© {year} Shouts. All rights reserved.</Trans>
      </p>
    </footer>
  )
}

export default Footer
