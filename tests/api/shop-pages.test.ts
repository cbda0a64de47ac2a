import { mkdirSync, mkdtempSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { SHOP_PAGES } from '../../src/contract/pages.ts'
import { startTestServer, type TestServer } from './helpers.ts'

// The shop's own pages (About, FAQs, Contact, Press, the terms, the privacy and the content policies):
// in each language, the operator's Markdown when their folder holds it, else a default text naming
// the operator from the configuration; never the operator's HTML.

describe("the shop's pages", () => {
  let server: TestServer
  let dir: string

  beforeAll(async () => {
    dir = mkdtempSync(join(tmpdir(), 'shop-pages-'))
    mkdirSync(join(dir, 'fr'))
    writeFileSync(
      join(dir, 'fr', 'terms.md'),
      '# Nos conditions\n\nVous achetez un **shout**: voir la [FAQ](/s/faqs/fr).\n\n<script>alert(1)</script>\n\n[piège](javascript:alert(1))',
    )
    server = await startTestServer('pglite', {
      env: {
        OPERATOR_NAME: 'Panneaux Lumière SARL',
        OPERATOR_EMAIL: 'bonjour@panneaux.example',
        SHOP_PAGES_DIR: dir,
      },
    })
  })
  afterAll(async () => {
    await server?.stop()
  })

  const page = async (path: string, headers: Record<string, string> = {}) => {
    const res = await fetch(`${server.url}${path}`, { headers, redirect: 'manual' })
    return { status: res.status, headers: res.headers, html: await res.text() }
  }

  it('answers every page in en, fr and de, each naming the operator or their address', async () => {
    for (const name of SHOP_PAGES) {
      for (const locale of ['en', 'fr', 'de']) {
        const res = await page(`/s/${name}/${locale}`)
        expect(res.status, `${name} ${locale}`).toBe(200)
        expect(res.headers.get('content-type')).toContain('text/html')
        expect(res.html).toContain(`<html lang="${locale}">`)
        expect(res.html).toMatch(/Panneaux Lumière SARL|bonjour@panneaux\.example/)
        expect(res.html).not.toContain('shouts.example')
      }
    }
  })

  it('says in plain words what the terms sell, with links to the policies they rely on', async () => {
    const terms = await page('/s/terms/en')
    expect(terms.html).toContain('<h1>Terms and conditions</h1>')
    expect(terms.html).toContain('These terms are between you and Panneaux Lumière SARL')
    expect(terms.html).toContain('href="/s/content-policy/en"')
    expect(terms.html).toContain('href="/s/privacy-policy/en"')
    const privacy = await page('/s/privacy-policy/de')
    expect(privacy.html).toContain('<h1>Datenschutzerklärung</h1>')
    expect(privacy.html).toContain('href="/s/privacy/de"')
    const contact = await page('/s/contact/fr')
    expect(contact.html).toContain('href="mailto:bonjour@panneaux.example"')
  })

  it("shows the operator's own text, with French typography, and never their HTML", async () => {
    const terms = await page('/s/terms/fr')
    expect(terms.html).toContain('<h1>Nos conditions</h1>')
    expect(terms.html).toContain('Vous achetez un <strong>shout</strong>\u202f: voir la')
    expect(terms.html).toContain('<a href="/s/faqs/fr">FAQ</a>')
    expect(terms.html).toContain('&lt;script&gt;alert(1)&lt;/script&gt;')
    expect(terms.html).not.toContain('<script')
    expect(terms.html).not.toContain('href="javascript:')
    // the other languages keep their default
    expect((await page('/s/terms/de')).html).toContain('<h1>Allgemeine Geschäftsbedingungen</h1>')
  })

  it("opens in the visitor's language; an unknown page or language is 404", async () => {
    const res = await page('/s/faqs', { 'accept-language': 'fr-FR,fr;q=0.9' })
    expect(res.status).toBe(302)
    expect(res.headers.get('location')).toBe('/s/faqs/fr')
    expect((await page('/s/faqs/xx')).status).toBe(404)
    expect((await page('/s/no-such-page/en')).status).toBe(404)
  })
})
