// The catalogue's template html is data written by an operator, not code: a small, strict subset of HTML
// with inline styles, parsed here into a tree of nodes (template-tree.ts makes satori's element tree of
// it). Nothing is ever handed to an HTML engine (no dangerouslySetInnerHTML), and placeholder values
// are inserted into the parsed tree as TEXT, so a message such as `<img src=x onerror=alert(1)>` is
// drawn on the billboard as those characters (catalogue-format.md: "placeholder values are always
// escaped when rendered", Rendering).

export const PLACEHOLDERS = ['buyerName', 'recipientName', 'multilineMessage', 'photoUrl'] as const
export type Placeholder = (typeof PLACEHOLDERS)[number]
export type TextPlaceholder = Exclude<Placeholder, 'photoUrl'>
export type PlaceholderValues = Record<TextPlaceholder, string>

const TAGS = ['div', 'span', 'p', 'strong', 'b', 'em', 'i', 'u', 'h1', 'h2', 'h3', 'img'] as const
type Tag = (typeof TAGS)[number]
const VOID_TAGS = new Set<Tag>(['img'])
const MAX_DEPTH = 32
const MAX_NODES = 500

/** One run of text: literal characters or the value of a placeholder, joined at render time. */
export type TextPart = { literal: string } | { placeholder: TextPlaceholder }

/** An image source: the shopper's processed photo or an image inlined in the template as a data URI. */
export type ImageSource = { photo: true } | { dataUri: string }

export type TemplateNode =
  | { kind: 'text'; parts: TextPart[] }
  | {
      kind: 'element'
      tag: Tag
      style: Record<string, string>
      /** Set on style backgroundImage: url({{photoUrl}}) (or a data URI), resolved at render time. */
      backgroundImage: ImageSource | null
      src: ImageSource | null
      children: TemplateNode[]
    }

export type ParsedTemplate = {
  nodes: TemplateNode[]
  /** True when the template shows the shopper's photo: such a template needs an upload. */
  usesPhoto: boolean
  /** The text placeholders the template uses. */
  placeholders: TextPlaceholder[]
}

export type ParseResult = { ok: true; template: ParsedTemplate } | { ok: false; errors: string[] }

// CSS properties satori lays out that a billboard design needs. Anything else (position: fixed, filters
// that fetch, behaviours) is refused so a template cannot reach outside the picture.
// biome-ignore format: a list of names reads best packed
const STYLE_PROPERTIES = new Set([
  'display', 'position', 'top', 'right', 'bottom', 'left', 'width', 'height', 'minWidth', 'minHeight',
  'maxWidth', 'maxHeight', 'flex', 'flexDirection', 'flexWrap', 'flexGrow', 'flexShrink', 'flexBasis',
  'alignItems', 'alignContent', 'alignSelf', 'justifyContent', 'gap', 'rowGap', 'columnGap',
  'margin', 'marginTop', 'marginRight', 'marginBottom', 'marginLeft',
  'padding', 'paddingTop', 'paddingRight', 'paddingBottom', 'paddingLeft',
  'border', 'borderTop', 'borderRight', 'borderBottom', 'borderLeft', 'borderWidth', 'borderStyle',
  'borderColor', 'borderRadius', 'borderTopLeftRadius', 'borderTopRightRadius',
  'borderBottomLeftRadius', 'borderBottomRightRadius',
  'background', 'backgroundColor', 'backgroundImage', 'backgroundSize', 'backgroundPosition',
  'backgroundRepeat', 'backgroundClip',
  'color', 'opacity', 'fontFamily', 'fontSize', 'fontWeight', 'fontStyle', 'lineHeight',
  'letterSpacing', 'textAlign', 'textTransform', 'textDecoration', 'textShadow', 'textOverflow',
  'whiteSpace', 'wordBreak', 'lineClamp', 'overflow', 'boxShadow', 'transform', 'transformOrigin',
  'objectFit', 'objectPosition', 'boxSizing', 'filter',
])

const PLACEHOLDER_PATTERN = /\{\{\s*([A-Za-z]+)\s*\}\}/g
const PHOTO_URL_VALUE = /^\s*url\(\s*(['"]?)\{\{\s*photoUrl\s*\}\}\1\s*\)\s*$/
const DATA_IMAGE = /^data:image\/(?:png|jpeg|gif|webp);base64,[A-Za-z0-9+/]+={0,2}$/
const DATA_IMAGE_URL_VALUE =
  /^\s*url\(\s*(['"]?)(data:image\/(?:png|jpeg|gif|webp);base64,[A-Za-z0-9+/]+={0,2})\1\s*\)\s*$/

const NAMED_ENTITIES: Record<string, string> = {
  amp: '&',
  lt: '<',
  gt: '>',
  quot: '"',
  apos: "'",
  nbsp: '\u00a0',
}

function decodeEntities(text: string, errors: string[]): string {
  return text.replace(/&(#x[0-9a-fA-F]+|#[0-9]+|[a-zA-Z]+);/g, (whole, body: string) => {
    if (body.startsWith('#x') || body.startsWith('#')) {
      const code = body.startsWith('#x')
        ? Number.parseInt(body.slice(2), 16)
        : Number(body.slice(1))
      if (
        Number.isInteger(code) &&
        code > 0 &&
        code <= 0x10ffff &&
        !(code >= 0xd800 && code <= 0xdfff)
      ) {
        return String.fromCodePoint(code)
      }
      errors.push(`Invalid character reference ${whole}`)
      return ''
    }
    const named = NAMED_ENTITIES[body]
    if (named === undefined) {
      errors.push(`Unknown entity ${whole}`)
      return ''
    }
    return named
  })
}

function isTag(name: string): name is Tag {
  return (TAGS as readonly string[]).includes(name)
}

function isTextPlaceholder(name: string): name is TextPlaceholder {
  return name === 'buyerName' || name === 'recipientName' || name === 'multilineMessage'
}

/** Splits literal text into parts around its placeholders; collapses whitespace as HTML does. */
function textParts(raw: string, errors: string[], found: Set<Placeholder>): TextPart[] {
  const parts: TextPart[] = []
  let last = 0
  for (const match of raw.matchAll(PLACEHOLDER_PATTERN)) {
    const index = match.index ?? 0
    if (index > last) parts.push({ literal: raw.slice(last, index) })
    const name = match[1] ?? ''
    if (isTextPlaceholder(name)) {
      parts.push({ placeholder: name })
      found.add(name)
    } else if (name === 'photoUrl') {
      errors.push('{{photoUrl}} can only be an img src or a background-image url()')
    } else {
      errors.push(`Unknown placeholder {{${name}}}`)
    }
    last = index + match[0].length
  }
  if (last < raw.length) parts.push({ literal: raw.slice(last) })
  return parts
    .map((part) =>
      'literal' in part
        ? { literal: decodeEntities(part.literal, errors).replace(/[ \t\r\n\f]+/g, ' ') }
        : part,
    )
    .filter((part) => !('literal' in part) || part.literal !== '')
}

function camelCase(property: string): string {
  return property
    .trim()
    .toLowerCase()
    .replace(/-([a-z])/g, (_, letter: string) => letter.toUpperCase())
}

/** Splits a style attribute on semicolons that are outside quotes and parentheses. */
function splitDeclarations(style: string): string[] {
  const declarations: string[] = []
  let depth = 0
  let quote: string | null = null
  let start = 0
  for (let index = 0; index < style.length; index++) {
    const char = style[index]
    if (quote) {
      if (char === quote) quote = null
    } else if (char === '"' || char === "'") quote = char
    else if (char === '(') depth++
    else if (char === ')') depth = Math.max(0, depth - 1)
    else if (char === ';' && depth === 0) {
      declarations.push(style.slice(start, index))
      start = index + 1
    }
  }
  declarations.push(style.slice(start))
  return declarations.filter((declaration) => declaration.trim() !== '')
}

type ParsedStyle = { style: Record<string, string>; backgroundImage: ImageSource | null }

function parseStyle(raw: string, errors: string[], found: Set<Placeholder>): ParsedStyle {
  const style: Record<string, string> = {}
  let backgroundImage: ImageSource | null = null
  for (const declaration of splitDeclarations(decodeEntities(raw, errors))) {
    const colon = declaration.indexOf(':')
    if (colon < 0) {
      errors.push(`Style declaration without a value: "${declaration.trim()}"`)
      continue
    }
    const property = camelCase(declaration.slice(0, colon))
    const value = declaration.slice(colon + 1).trim()
    if (!STYLE_PROPERTIES.has(property)) {
      errors.push(`Style property "${declaration.slice(0, colon).trim()}" is not allowed`)
      continue
    }
    if (property === 'backgroundImage' && PHOTO_URL_VALUE.test(value)) {
      backgroundImage = { photo: true }
      found.add('photoUrl')
      continue
    }
    const dataUrl = property === 'backgroundImage' ? DATA_IMAGE_URL_VALUE.exec(value) : null
    if (dataUrl?.[2]) {
      backgroundImage = { dataUri: dataUrl[2] }
      continue
    }
    // Anything else that could make the renderer fetch or run something is refused: url(), @import,
    // expressions, and placeholders (text values never go into styles).
    if (/url\s*\(|@import|expression\s*\(|javascript:|\{\{|\}\}|[<>\\]/i.test(value)) {
      errors.push(
        `Style value for "${declaration.slice(0, colon).trim()}" is not allowed: ${value}`,
      )
      continue
    }
    style[property] = value
  }
  return { style, backgroundImage }
}

type Attribute = { name: string; value: string }

type Token =
  | { type: 'text'; raw: string }
  | { type: 'open'; name: string; attributes: Attribute[]; selfClosing: boolean }
  | { type: 'close'; name: string }

const ATTRIBUTE =
  /\s*([a-zA-Z_:][a-zA-Z0-9_.:-]*)(?:\s*=\s*(?:"([^"]*)"|'([^']*)'|([^\s"'=<>`]+)))?/y

function tokenize(html: string, errors: string[]): Token[] {
  const tokens: Token[] = []
  let index = 0
  while (index < html.length) {
    const lt = html.indexOf('<', index)
    if (lt < 0) {
      tokens.push({ type: 'text', raw: html.slice(index) })
      break
    }
    if (lt > index) tokens.push({ type: 'text', raw: html.slice(index, lt) })
    if (html.startsWith('<!--', lt)) {
      const end = html.indexOf('-->', lt + 4)
      if (end < 0) {
        errors.push('Unclosed comment')
        break
      }
      index = end + 3
      continue
    }
    const close = /^<\/\s*([a-zA-Z][a-zA-Z0-9]*)\s*>/.exec(html.slice(lt))
    if (close) {
      tokens.push({ type: 'close', name: (close[1] ?? '').toLowerCase() })
      index = lt + close[0].length
      continue
    }
    const open = /^<([a-zA-Z][a-zA-Z0-9]*)/.exec(html.slice(lt))
    if (!open) {
      errors.push(`Unexpected "<" at character ${lt}: write &lt; for a literal "<"`)
      break
    }
    const name = (open[1] ?? '').toLowerCase()
    let cursor = lt + open[0].length
    const attributes: Attribute[] = []
    for (;;) {
      ATTRIBUTE.lastIndex = cursor
      const match = ATTRIBUTE.exec(html)
      if (!match) break
      attributes.push({
        name: (match[1] ?? '').toLowerCase(),
        value: match[2] ?? match[3] ?? match[4] ?? '',
      })
      cursor = ATTRIBUTE.lastIndex
    }
    const end = /^\s*(\/?)>/.exec(html.slice(cursor))
    if (!end) {
      errors.push(`Malformed <${name}> tag at character ${lt}`)
      break
    }
    tokens.push({ type: 'open', name, attributes, selfClosing: end[1] === '/' })
    index = cursor + end[0].length
  }
  return tokens
}

function imageSource(raw: string, errors: string[], found: Set<Placeholder>): ImageSource | null {
  const value = raw.trim()
  if (/^\{\{\s*photoUrl\s*\}\}$/.test(value)) {
    found.add('photoUrl')
    return { photo: true }
  }
  if (DATA_IMAGE.test(value)) return { dataUri: value }
  errors.push(`img src must be {{photoUrl}} or a data:image URI, not "${value.slice(0, 60)}"`)
  return null
}

/**
 * Parses a template's html. Every problem is listed (an import can show them all); an unknown tag,
 * attribute, style property or placeholder is an error rather than silently dropped, so what the
 * operator previews is what a billboard shows.
 */
export function parseTemplateHtml(html: string): ParseResult {
  const errors: string[] = []
  const found = new Set<Placeholder>()
  const tokens = tokenize(html, errors)
  type Frame = { tag: Tag | null; children: TemplateNode[] }
  const root: Frame = { tag: null, children: [] }
  const stack: Frame[] = [root]
  let count = 0
  for (const token of tokens) {
    const top = stack[stack.length - 1] ?? root
    if (token.type === 'text') {
      const parts = textParts(token.raw, errors, found)
      const blank = parts.every((part) => 'literal' in part && part.literal.trim() === '')
      // Whitespace between tags is indentation, not content.
      if (!blank) top.children.push({ kind: 'text', parts })
      continue
    }
    if (token.type === 'close') {
      if (top.tag !== token.name) {
        errors.push(`Unexpected </${token.name}>${top.tag ? `: <${top.tag}> is still open` : ''}`)
        continue
      }
      stack.pop()
      continue
    }
    if (!isTag(token.name)) {
      errors.push(`Tag <${token.name}> is not allowed (allowed: ${TAGS.join(', ')})`)
      continue
    }
    count++
    if (count > MAX_NODES) {
      errors.push(`A template has at most ${MAX_NODES} elements`)
      break
    }
    const element: Extract<TemplateNode, { kind: 'element' }> = {
      kind: 'element',
      tag: token.name,
      style: {},
      backgroundImage: null,
      src: null,
      children: [],
    }
    for (const attribute of token.attributes) {
      if (attribute.name === 'style') {
        const parsed = parseStyle(attribute.value, errors, found)
        element.style = parsed.style
        element.backgroundImage = parsed.backgroundImage
      } else if (attribute.name === 'src' && element.tag === 'img') {
        element.src = imageSource(attribute.value, errors, found)
      } else if (
        (attribute.name === 'width' || attribute.name === 'height') &&
        element.tag === 'img'
      ) {
        if (!/^\d{1,5}$/.test(attribute.value))
          errors.push(`img ${attribute.name} must be a number`)
        else element.style[attribute.name] = `${attribute.value}px`
      } else if (attribute.name === 'alt' && element.tag === 'img') {
        // Alt text has no place on a billboard picture; accepted so authors can keep good habits.
      } else {
        errors.push(`Attribute "${attribute.name}" is not allowed on <${element.tag}>`)
      }
    }
    if (element.tag === 'img' && !element.src) {
      if (!token.attributes.some((attribute) => attribute.name === 'src'))
        errors.push('img needs a src')
    }
    top.children.push(element)
    if (VOID_TAGS.has(element.tag) || token.selfClosing) {
      if (token.selfClosing && !VOID_TAGS.has(element.tag)) {
        errors.push(`<${element.tag}/> cannot be self-closing`)
      }
      continue
    }
    if (stack.length > MAX_DEPTH) {
      errors.push(`Elements are nested deeper than ${MAX_DEPTH} levels`)
      break
    }
    stack.push({ tag: element.tag, children: element.children })
  }
  for (const frame of stack.slice(1).reverse()) errors.push(`<${frame.tag}> is never closed`)
  if (errors.length === 0 && root.children.length === 0) errors.push('The template html is empty')
  if (errors.length > 0) return { ok: false, errors: [...new Set(errors)] }
  return {
    ok: true,
    template: {
      nodes: root.children,
      usesPhoto: found.has('photoUrl'),
      placeholders: PLACEHOLDERS.filter(isTextPlaceholder).filter((name) => found.has(name)),
    },
  }
}
