import { describe, expect, it } from 'vitest'
import { type SatoriElement, toSatoriTree } from '../content/template-tree.ts'
import { parseTemplateHtml } from './template-html.ts'

const values = { buyerName: 'Ann', recipientName: 'Bob', multilineMessage: 'Hello' }
const noPhoto = { photoDataUri: null }
const size = { width: 1400, height: 400 }
const options = { fontStack: (value: string | undefined) => value ?? 'sans-serif' }

function parse(html: string) {
  const result = parseTemplateHtml(html)
  if (!result.ok) throw new Error(result.errors.join('\n'))
  return result.template
}

function texts(node: SatoriElement | string | undefined): string[] {
  if (node === undefined) return []
  if (typeof node === 'string') return [node]
  const children = node.props.children
  const list = Array.isArray(children) ? children : children === undefined ? [] : [children]
  return list.flatMap(texts)
}

function elements(node: SatoriElement | string | undefined): SatoriElement[] {
  if (node === undefined || typeof node === 'string') return []
  const children = node.props.children
  const list = Array.isArray(children) ? children : children === undefined ? [] : [children]
  return [node, ...list.flatMap(elements)]
}

describe('parseTemplateHtml', () => {
  it('inserts placeholder values as text, never as markup', () => {
    const template = parse('<div style="color: red">{{recipientName}}: {{multilineMessage}}</div>')
    const xss = '<img src=x onerror=alert(1)>'
    const tree = toSatoriTree(
      template,
      { ...values, multilineMessage: xss },
      noPhoto,
      size,
      options,
    )
    expect(texts(tree)).toEqual([`Bob: ${xss}`])
    // No element came out of the value: only the root box and the template's div.
    expect(elements(tree).map((element) => element.type)).toEqual(['div', 'div'])
  })

  it('drops indentation between tags and collapses runs of spaces in the template text', () => {
    const tree = toSatoriTree(
      parse('<div>\n  <span>Joyeuse   fête,\n {{recipientName}}</span>\n</div>'),
      values,
      noPhoto,
      size,
      options,
    )
    expect(texts(tree)).toEqual(['Joyeuse fête, Bob'])
  })

  it('decodes the known entities and numeric references', () => {
    const tree = toSatoriTree(
      parse('<p>F&#252;r &amp; &lt;Maman&gt; &#x2764;</p>'),
      values,
      noPhoto,
      size,
      options,
    )
    expect(texts(tree)).toEqual(['Für & <Maman> ❤'])
  })

  it('reports which placeholders and whether a photo is used', () => {
    const template = parse(
      '<div><img src="{{photoUrl}}" style="width: 400px; height: 400px; object-fit: cover"/><span>{{buyerName}}</span></div>',
    )
    expect(template.usesPhoto).toBe(true)
    expect(template.placeholders).toEqual(['buyerName'])
    const tree = toSatoriTree(
      template,
      values,
      { photoDataUri: 'data:image/jpeg;base64,AAAA' },
      size,
      options,
    )
    const img = elements(tree).find((element) => element.type === 'img')
    expect(img?.props.src).toBe('data:image/jpeg;base64,AAAA')
    expect(img?.props.style).toMatchObject({ width: '400px', objectFit: 'cover' })
  })

  it('accepts the photo as a background image', () => {
    const template = parse(
      '<div style="background-image: url(\'{{photoUrl}}\'); width: 100%">x</div>',
    )
    expect(template.usesPhoto).toBe(true)
    const tree = toSatoriTree(
      template,
      values,
      { photoDataUri: 'data:image/png;base64,QUJD' },
      size,
      options,
    )
    expect(elements(tree)[1]?.props.style?.backgroundImage).toBe('url(data:image/png;base64,QUJD)')
  })

  it('refuses to render a photo template without a photo', () => {
    const template = parse('<img src="{{photoUrl}}"/>')
    expect(() => toSatoriTree(template, values, noPhoto, size, options)).toThrow(
      'no photo for the template to place',
    )
  })

  it('keeps the line breaks of the message', () => {
    const template = parse('<div><span>{{multilineMessage}}</span></div>')
    const tree = toSatoriTree(
      template,
      { ...values, multilineMessage: 'one\ntwo' },
      noPhoto,
      size,
      options,
    )
    const span = elements(tree).find((element) => element.type === 'span')
    expect(span?.props.children).toBe('one\ntwo')
    expect(span?.props.style?.whiteSpace).toBe('pre-wrap')
  })

  it('gives a div with several children the flex box satori needs', () => {
    const tree = toSatoriTree(
      parse('<div><span>a</span><span>b</span></div>'),
      values,
      noPhoto,
      size,
      options,
    )
    expect(elements(tree)[1]?.props.style?.display).toBe('flex')
  })

  it.each([
    ['<script>alert(1)</script>', 'Tag <script> is not allowed'],
    ['<div onclick="x()">a</div>', 'Attribute "onclick" is not allowed on <div>'],
    ['<img src="https://evil.example/x.png"/>', 'img src must be {{photoUrl}} or a data:image URI'],
    [
      '<div style="background-image: url(https://evil.example/a.png)">a</div>',
      'Style value for "background-image" is not allowed',
    ],
    [
      '<div style="position: fixed; behavior: url(x.htc)">a</div>',
      'Style property "behavior" is not allowed',
    ],
    ['<div>{{secret}}</div>', 'Unknown placeholder {{secret}}'],
    ['<div>{{photoUrl}}</div>', '{{photoUrl}} can only be an img src or a background-image url()'],
    ['<div style="color: {{buyerName}}">a</div>', 'Style value for "color" is not allowed'],
    ['<div><span>a</div>', 'Unexpected </div>: <span> is still open'],
    ['<div>a', '<div> is never closed'],
    ['<div>a < b</div>', 'Unexpected "<"'],
    ['', 'The template html is empty'],
    ['<p>&bogus;</p>', 'Unknown entity &bogus;'],
  ])('refuses %s', (html, message) => {
    const result = parseTemplateHtml(html)
    expect(result.ok).toBe(false)
    if (!result.ok) expect(result.errors.join('\n')).toContain(message)
  })
})
