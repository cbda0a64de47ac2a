import { describe, expect, it } from 'vitest'
import { markdownHtml, titleOf } from './markdown.ts'

describe("an operator's Markdown, as the shop's pages show it", () => {
  it('writes headings, paragraphs, lists, emphasis and links', () => {
    const html = markdownHtml(
      '## Questions\nA *short* answer,\non two lines.\n\n- one **bold**\n- two `code`\n\n1. first\n2. [terms](/s/terms/en)',
    )
    expect(html).toBe(
      [
        '<h3>Questions</h3>',
        '<p>A <em>short</em> answer, on two lines.</p>',
        '<ul><li>one <strong>bold</strong></li><li>two <code>code</code></li></ul>',
        '<ol><li>first</li><li><a href="/s/terms/en">terms</a></li></ol>',
      ].join('\n'),
    )
  })

  it("shows the operator's HTML as text, never as markup", () => {
    const html = markdownHtml('<script>alert(1)</script> <img src=x onerror=alert(1)>')
    expect(html).toBe(
      '<p>&lt;script&gt;alert(1)&lt;/script&gt; &lt;img src=x onerror=alert(1)&gt;</p>',
    )
  })

  it.each([
    '[x](javascript:alert(1))',
    '[x](JaVaScRiPt:alert(1))',
    '[x](data:text/html,<b>)',
    '[x](//evil.example/)',
    '[x](vbscript:msgbox)',
  ])('writes %j as text, not as a link', (markdown) => {
    expect(markdownHtml(markdown)).not.toContain('<a ')
  })

  it("links only to web, mail and phone addresses and the shop's own paths, quotes escaped", () => {
    expect(markdownHtml('[a](https://example.com/?q="x")')).toBe(
      '<p><a href="https://example.com/?q=&quot;x&quot;">a</a></p>',
    )
    expect(markdownHtml('<mailto:shop@example.com>')).toBe(
      '<p><a href="mailto:shop@example.com">shop@example.com</a></p>',
    )
    expect(markdownHtml('[call](tel:+33612345678)')).toContain('href="tel:+33612345678"')
  })

  it('takes the first # heading as the title', () => {
    expect(titleOf('# About us\n\nText')).toEqual({ title: 'About us', body: 'Text' })
    expect(titleOf('Text only')).toEqual({ title: null, body: 'Text only' })
  })
})
