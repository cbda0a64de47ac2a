// The play logs garlic-player and IAdea players PUT (A-SMIL's PlaylogCollection, docs/billboards.md):
// a `report` (garlic's namespace http://schemas.garlic-player.com/gapi-1.0, IAdea's adapi-1.0) whose
// `player` holds `contentPlayLog` elements of `contentPlayed`, each with `contentId`, `startTime` and
// `endTime` (local time with its offset). The shape is fixed and small, so it is read by a strict
// parser of its own rather than a general XML library: no DTD (a DOCTYPE is refused, so no entity can
// be declared or expanded: no billion laughs, no external entity), only the five predefined entities
// and character references, a cap on the size, the depth and the number of elements, and every tag
// closed in order. Anything else is not a play log.

/** A play log body's size at most (a player sends its logs every refreshInterval: a few KB). */
export const MAX_PLAY_LOG_BYTES = 256 * 1024
/** report › player › contentPlayLog › contentPlayed › contentId is 5 deep; a little room beyond. */
const MAX_DEPTH = 12
/** Elements in one body: 500 plays of 4 elements, and their envelope. */
const MAX_ELEMENTS = 2_500
/** A tag's length at most, its attributes with it: a play log's tags are a few dozen characters. */
export const MAX_TAG_CHARS = 2048

export type XmlElement = {
  /** The local name, without a namespace prefix. */
  name: string
  attributes: Record<string, string>
  children: XmlElement[]
  /** The element's own text, entities decoded, trimmed. */
  text: string
}

const PREDEFINED: Record<string, string> = {
  lt: '<',
  gt: '>',
  amp: '&',
  quot: '"',
  apos: "'",
}

/** Text or an attribute's value with its references resolved; null on any other `&`. */
function decode(raw: string): string | null {
  if (!raw.includes('&')) return raw
  let out = ''
  let i = 0
  for (;;) {
    const amp = raw.indexOf('&', i)
    if (amp === -1) return out + raw.slice(i)
    const semi = raw.indexOf(';', amp)
    if (semi === -1 || semi - amp > 10) return null
    const name = raw.slice(amp + 1, semi)
    const numeric = /^#(?:x([0-9a-fA-F]{1,6})|([0-9]{1,7}))$/.exec(name)
    let value: string | undefined
    if (numeric) {
      const code = numeric[1] ? Number.parseInt(numeric[1], 16) : Number(numeric[2])
      if (code === 0 || code > 0x10ffff) return null
      value = String.fromCodePoint(code)
    } else value = PREDEFINED[name]
    if (value === undefined) return null
    out += raw.slice(i, amp) + value
    i = semi + 1
  }
}

const localName = (qualified: string) => qualified.slice(qualified.indexOf(':') + 1)
const NAME = /^[A-Za-z_][\w.:-]*$/
// Sticky: each attribute is read where the last one ended, never searched for further on (a search
// from every position of a long tag without `=` would take time in the square of its length)
const ATTRIBUTE = /\s+([A-Za-z_][\w.:-]*)\s*=\s*(?:"([^"<]*)"|'([^'<]*)')/y

function parseTag(inside: string): { name: string; attributes: Record<string, string> } | null {
  if (inside.length > MAX_TAG_CHARS) return null
  const match = /^[^\s/>]+/.exec(inside)
  if (!match || !NAME.test(match[0])) return null
  const attributes: Record<string, string> = {}
  ATTRIBUTE.lastIndex = match[0].length
  for (;;) {
    const at = ATTRIBUTE.lastIndex
    const a = ATTRIBUTE.exec(inside)
    if (!a) {
      if (inside.slice(at).trim() !== '') return null
      break
    }
    const value = decode(a[2] ?? a[3] ?? '')
    if (value === null) return null
    attributes[a[1] as string] = value
  }
  return { name: match[0], attributes }
}

/** The document's root element, or null when the text is not a well-formed document of this kind. */
export function parsePlayLogXml(xml: string): XmlElement | null {
  if (xml.length > MAX_PLAY_LOG_BYTES || xml.includes('\u0000')) return null
  const stack: { qualified: string; element: XmlElement; text: string }[] = []
  let root: XmlElement | null = null
  let elements = 0
  let i = xml.charCodeAt(0) === 0xfeff ? 1 : 0
  while (i < xml.length) {
    const open = xml.indexOf('<', i)
    const textEnd = open === -1 ? xml.length : open
    const text = xml.slice(i, textEnd)
    if (stack.length === 0) {
      if (text.trim() !== '') return null
    } else {
      const decoded = decode(text)
      if (decoded === null) return null
      ;(stack.at(-1) as { text: string }).text += decoded
    }
    if (open === -1) break
    if (xml.startsWith('<?', open)) {
      const end = xml.indexOf('?>', open)
      if (end === -1) return null
      i = end + 2
    } else if (xml.startsWith('<!--', open)) {
      const end = xml.indexOf('-->', open)
      if (end === -1) return null
      i = end + 3
    } else if (xml.startsWith('<![CDATA[', open)) {
      const end = xml.indexOf(']]>', open)
      if (end === -1 || stack.length === 0) return null
      ;(stack.at(-1) as { text: string }).text += xml.slice(open + 9, end)
      i = end + 3
    } else if (xml.startsWith('<!', open)) {
      // a DOCTYPE, and with it any entity declaration: never read
      return null
    } else {
      const end = xml.indexOf('>', open)
      if (end === -1) return null
      const inside = xml.slice(open + 1, end)
      i = end + 1
      if (inside.startsWith('/')) {
        const top = stack.pop()
        if (!top || top.qualified !== inside.slice(1).trim()) return null
        top.element.text = top.text.trim()
        if (stack.length === 0) root = top.element
        continue
      }
      if (root !== null) return null // a second root
      const selfClosing = inside.endsWith('/')
      const tag = parseTag(selfClosing ? inside.slice(0, -1) : inside)
      if (!tag || ++elements > MAX_ELEMENTS) return null
      const element: XmlElement = {
        name: localName(tag.name),
        attributes: tag.attributes,
        children: [],
        text: '',
      }
      stack.at(-1)?.element.children.push(element)
      if (selfClosing) {
        if (stack.length === 0) root = element
      } else {
        if (stack.length >= MAX_DEPTH) return null
        stack.push({ qualified: tag.name, element, text: '' })
      }
    }
  }
  return stack.length === 0 ? root : null
}

/** One play as a garlic or IAdea play log states it. */
export type LoggedPlay = { contentId: string; startTime: string; endTime: string }

export type PlayLogReport = {
  /** Which player wrote it, by the report's namespace. */
  kind: 'garlic' | 'iadea'
  plays: LoggedPlay[]
}

export const GARLIC_NAMESPACE = 'http://schemas.garlic-player.com/gapi-1.0'
export const ADAPI_NAMESPACE = 'http://schemas.adfotain.org/adapi-1.0'

const childText = (element: XmlElement, name: string) =>
  element.children.find((c) => c.name === name)?.text ?? ''

/**
 * The plays of a play log report, or null when the body is not one. `contentPlayed` elements are
 * taken wherever they sit under the report's players (garlic wraps each file's in a contentPlayLog).
 */
export function readPlayLogReport(xml: string): PlayLogReport | null {
  const root = parsePlayLogXml(xml)
  if (root?.name !== 'report') return null
  // garlic's namespace among any the root declares (xmlns:xsi may come first)
  const garlic = Object.entries(root.attributes).some(
    ([name, value]) =>
      (name === 'xmlns' || name.startsWith('xmlns:')) && value === GARLIC_NAMESPACE,
  )
  const kind = garlic ? 'garlic' : 'iadea'
  const plays: LoggedPlay[] = []
  const walk = (element: XmlElement) => {
    for (const child of element.children) {
      if (child.name === 'contentPlayed') {
        plays.push({
          contentId: childText(child, 'contentId'),
          startTime: childText(child, 'startTime'),
          endTime: childText(child, 'endTime'),
        })
      } else walk(child)
    }
  }
  walk(root)
  return { kind, plays }
}
