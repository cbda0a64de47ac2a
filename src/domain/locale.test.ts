import { describe, expect, it } from 'vitest'
import {
  acceptedLanguages,
  eventSlugFromPath,
  localeFromCookies,
  preferredLocale,
  splitLocalePath,
  withLocalePrefix,
} from './locale'

describe('splitLocalePath (spec §2)', () => {
  it('reads the /fr and /de prefixes; English has none', () => {
    expect(splitLocalePath('/fr/share-the-love')).toEqual({ locale: 'fr', path: '/share-the-love' })
    expect(splitLocalePath('/de')).toEqual({ locale: 'de', path: '/' })
    expect(splitLocalePath('/share-the-love')).toEqual({ locale: 'en', path: '/share-the-love' })
    expect(splitLocalePath('/french-fries')).toEqual({ locale: 'en', path: '/french-fries' })
  })
})

describe('the root page language (spec §2, §9)', () => {
  it('keeps the i18n_redirected cookie when it names a language of the shop', () => {
    expect(localeFromCookies('a=1; i18n_redirected=de; b=2')).toBe('de')
    expect(localeFromCookies('i18n_redirected=es')).toBeNull()
    expect(localeFromCookies('i18n_redirected=%E0')).toBeNull()
    expect(localeFromCookies(undefined)).toBeNull()
  })

  it("takes the first of the browser's languages the shop speaks, else English", () => {
    expect(preferredLocale(['es-ES', 'fr-CA', 'de'])).toBe('fr')
    expect(preferredLocale(['es'])).toBe('en')
    expect(preferredLocale([])).toBe('en')
  })

  it('orders an Accept-Language header by preference and drops refused languages', () => {
    expect(acceptedLanguages('es;q=0.5, de-DE, fr;q=0.8')).toEqual(['de-DE', 'fr', 'es'])
    expect(acceptedLanguages('fr;q=0, de;q=0.1')).toEqual(['de'])
    expect(acceptedLanguages(undefined)).toEqual([])
  })
})

describe('eventSlugFromPath', () => {
  it('reads the event slug from every locale prefix', () => {
    expect(eventSlugFromPath('/mothers-day')).toBe('mothers-day')
    expect(eventSlugFromPath('/fr/mothers-day/design/location')).toBe('mothers-day')
    expect(eventSlugFromPath('/de/valentines/order/review')).toBe('valentines')
    // a slug that starts like a prefix is a slug
    expect(eventSlugFromPath('/french-days')).toBe('french-days')
  })
  it('is null for pages that name no event', () => {
    expect(eventSlugFromPath('/')).toBeNull()
    expect(eventSlugFromPath('/fr')).toBeNull()
    expect(eventSlugFromPath('/event-not-found')).toBeNull()
    // the advertisers' pages
    expect(eventSlugFromPath('/account')).toBeNull()
    expect(eventSlugFromPath('/de/campaigns/c-1')).toBeNull()
    expect(eventSlugFromPath('/proposal/p-1')).toBeNull()
    expect(eventSlugFromPath('/robots.txt')).toBeNull()
    expect(eventSlugFromPath('/api/v1/spotlight/live-events')).toBeNull()
    // The billboard player (its address holds its token: never remembered as a step)
    expect(eventSlugFromPath('/play/paris-opera-1')).toBeNull()
  })
})

describe('the language prefix of an address (spec §2)', () => {
  it('is none for English, /fr and /de otherwise, and the home page is the prefix itself', () => {
    expect(withLocalePrefix('/share-the-love/design/location', 'en')).toBe(
      '/share-the-love/design/location',
    )
    expect(withLocalePrefix('/share-the-love/design/location', 'fr')).toBe(
      '/fr/share-the-love/design/location',
    )
    expect(withLocalePrefix('/', 'de')).toBe('/de')
    expect(withLocalePrefix('/', 'en')).toBe('/')
  })
})
