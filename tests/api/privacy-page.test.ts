import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { startTestServer, type TestServer } from './helpers.ts'

// The shop's privacy page: in plain words, in the shopper's language, the lifetimes the shop runs by.

describe("the shop's privacy page", () => {
  let server: TestServer

  beforeAll(async () => {
    server = await startTestServer('pglite', {
      env: { ORDER_CONTENT_TTL_DAYS: '45', UNORDERED_CONTENT_TTL_HOURS: '12' },
    })
  })
  afterAll(async () => {
    await server?.stop()
  })

  it('says what is kept, for how long and how to have it forgotten, in en, fr and de', async () => {
    const expected = {
      en: ['Your data', '12 hours', 'until 45 days after', 'Forget my data'],
      fr: ['Vos données', '12 heures', 'jusqu’à 45 jours après', 'Oublier mes données'],
      de: ['Deine Daten', '12 Stunden', 'bis 45 Tage nach', 'Meine Daten vergessen'],
    }
    for (const [locale, phrases] of Object.entries(expected)) {
      const res = await fetch(`${server.url}/s/privacy/${locale}`)
      expect(res.status).toBe(200)
      const html = await res.text()
      expect(html).toContain(`<html lang="${locale}">`)
      for (const phrase of phrases) expect(html).toContain(phrase)
    }
  })

  it("opens in the visitor's language, and an unknown language is 404", async () => {
    const res = await fetch(`${server.url}/s/privacy`, {
      headers: { 'accept-language': 'de-DE,de;q=0.9' },
      redirect: 'manual',
    })
    expect(res.status).toBe(302)
    expect(res.headers.get('location')).toBe('/s/privacy/de')
    expect((await fetch(`${server.url}/s/privacy/xx`)).status).toBe(404)
  })
})
