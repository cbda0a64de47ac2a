import { Trans, useLingui } from '@lingui/react/macro'
import { Link, useLoaderData, useNavigate } from '@tanstack/react-router'
import { type FormEvent, useMemo, useState } from 'react'
import { Button } from '../../ui/button'
import { LanguageSwitcher } from '../../ui/language-switcher'
import { TextField } from '../../ui/text-field'
import { eventDays } from './event-days'

/** spec §2: the home page (home layout: content only). */
export function HomePage() {
  const { t, i18n } = useLingui()
  const navigate = useNavigate()
  const { events, days: loaded } = useLoaderData({ from: '/' })
  const [code, setCode] = useState('')

  const go = (e: FormEvent) => {
    e.preventDefault()
    const slug = code.trim().toLowerCase()
    if (slug) void navigate({ to: '/$eventslug/design/location', params: { eventslug: slug } })
  }

  // The loader's days, formatted on the server for a first visit; formatted here only once the
  // shopper changed the page's language since they were loaded.
  const days = useMemo(
    () => (loaded.locale === i18n.locale ? loaded : eventDays(events, i18n.locale)),
    [loaded, events, i18n.locale],
  )

  return (
    <main className="home" id="main">
      <div className="home__top">
        <span className="home__logo">
          <span className="logo__mark" aria-hidden="true">
            ◆
          </span>{' '}
          Shouts
        </span>
        <LanguageSwitcher />
      </div>
      <section className="home__hero">
        <h1 className="home__title">
          <Trans>Share the Gift of a Billboard</Trans>
        </h1>
        <p className="home__lead">
          <Trans>
            Put your photo and a few loving words on a giant digital billboard, at the time you
            choose. Pick a billboard, a design and your moments — we do the rest.
          </Trans>
        </p>
      </section>
      <section className="home__events" aria-labelledby="live-events">
        <h2 id="live-events">
          <Trans>Live events</Trans>
        </h2>
        {events.length === 0 ? (
          <p className="muted">
            <Trans>No event is open right now. Have a code from a billboard? Enter it below.</Trans>
          </p>
        ) : (
          <ul className="event-cards">
            {events.map((event) => (
              <li key={event.slug} className="event-card">
                <h3 className="event-card__name">{event.name}</h3>
                <p className="event-card__dates">
                  {days.bySlug[event.slug]?.[0]} – {days.bySlug[event.slug]?.[1]}
                </p>
                {event.sponsorName ? (
                  <p className="event-card__sponsor">{t`Presented by ${event.sponsorName}`}</p>
                ) : null}
                <Link
                  to="/$eventslug/design/location"
                  params={{ eventslug: event.slug }}
                  className="btn btn--orange btn--large btn--side-center"
                  aria-label={t`Create a shout for ${event.name}`}
                >
                  <span className="btn__label">
                    <Trans>Create a shout</Trans>
                  </span>
                </Link>
              </li>
            ))}
          </ul>
        )}
      </section>
      <section className="home__code">
        <form onSubmit={go} className="code-form">
          <TextField
            label={t`Event code`}
            hint={t`It is printed on the billboard, under the QR code.`}
            value={code}
            onChange={(e) => setCode(e.target.value)}
            autoCapitalize="none"
            autoComplete="off"
          />
          <Button kind="black" htmlType="submit" size="field">
            <Trans>Go</Trans>
          </Button>
        </form>
      </section>
      <p className="home__advertise">
        <Link to="/advertise">
          <Trans>Advertise on our billboards</Trans>
        </Link>
      </p>
    </main>
  )
}
