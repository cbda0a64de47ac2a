// The operator's pages are written in Markdown (docs/pages.md) and shown as HTML to every shopper, so
// the HTML is made here, safe by construction: every character of the text is escaped, and only the
// tags of a small Markdown subset are written (headings, paragraphs, lists, emphasis, code, links
// and rules). An operator's raw HTML is shown as text; a link goes only to http(s), mailto:, tel:,
// a path of the shop or an anchor, never to javascript: or data:.

const escapeHtml = (text: string) =>
  text
    .replaceAll('&', '&amp;')
    .replaceAll('<', '&lt;')
    .replaceAll('>', '&gt;')
    .replaceAll('"', '&quot;')
    .replaceAll("'", '&#39;')

const SAFE_HREF = /^(https?:\/\/|mailto:|tel:|\/(?!\/)|#)/i

/** A link's address when it is one the page may link to, else null (the link is shown as text). */
function safeHref(href: string): string | null {
  const trimmed = href.trim()
  // control characters and spaces inside a scheme ("java\tscript:") are no address of ours
  if (
    [...trimmed].some((c) => c.charCodeAt(0) < 0x20 || c.charCodeAt(0) === 0x7f || /\s/.test(c))
  ) {
    return null
  }
  return SAFE_HREF.test(trimmed) ? trimmed : null
}

/** One line's inline Markdown: `code`, **strong**, *em* / _em_, [text](address), <address>. */
export function inlineHtml(text: string): string {
  const parts: string[] = []
  const pattern =
    /`([^`]+)`|\*\*(.+?)\*\*|\*([^*\s][^*]*?)\*|(?<![\w])_([^_\s][^_]*?)_(?![\w])|\[([^\]]+)\]\(([^)\s]+)\)|<((?:https?:\/\/|mailto:)[^>\s]+)>/g
  let last = 0
  for (const match of text.matchAll(pattern)) {
    parts.push(escapeHtml(text.slice(last, match.index)))
    const [whole, code, strong, em, em2, label, href, auto] = match
    if (code !== undefined) parts.push(`<code>${escapeHtml(code)}</code>`)
    else if (strong !== undefined) parts.push(`<strong>${inlineHtml(strong)}</strong>`)
    else if (em !== undefined || em2 !== undefined)
      parts.push(`<em>${inlineHtml(em ?? em2 ?? '')}</em>`)
    else if (label !== undefined && href !== undefined) {
      const safe = safeHref(href)
      parts.push(
        safe ? `<a href="${escapeHtml(safe)}">${inlineHtml(label)}</a>` : escapeHtml(whole),
      )
    } else if (auto !== undefined) {
      const safe = safeHref(auto)
      parts.push(
        safe
          ? `<a href="${escapeHtml(safe)}">${escapeHtml(auto.replace(/^mailto:/, ''))}</a>`
          : escapeHtml(whole),
      )
    }
    last = match.index + whole.length
  }
  parts.push(escapeHtml(text.slice(last)))
  return parts.join('')
}

type Block =
  | { kind: 'heading'; level: number; text: string }
  | { kind: 'paragraph'; lines: string[] }
  | { kind: 'list'; ordered: boolean; items: string[] }
  | { kind: 'rule' }

function blocksOf(markdown: string): Block[] {
  const blocks: Block[] = []
  let current: Block | null = null
  const close = () => {
    if (current) blocks.push(current)
    current = null
  }
  for (const raw of markdown.replace(/\r\n?/g, '\n').split('\n')) {
    const line = raw.trimEnd()
    const heading = /^(#{1,4})\s+(.*)$/.exec(line)
    const bullet = /^\s*[-*+]\s+(.*)$/.exec(line)
    const numbered = /^\s*\d{1,3}[.)]\s+(.*)$/.exec(line)
    if (!line.trim()) close()
    else if (/^\s*([-*_])(\s*\1){2,}\s*$/.test(line)) {
      close()
      blocks.push({ kind: 'rule' })
    } else if (heading) {
      close()
      blocks.push({ kind: 'heading', level: heading[1]?.length ?? 1, text: heading[2] ?? '' })
    } else if (bullet || numbered) {
      const ordered = !bullet
      const text = (bullet ?? numbered)?.[1] ?? ''
      const open = current as Block | null
      if (open?.kind === 'list' && open.ordered === ordered) open.items.push(text)
      else {
        close()
        current = { kind: 'list', ordered, items: [text] }
      }
    } else {
      const open = current as Block | null
      if (open?.kind === 'list' && /^\s+/.test(raw)) {
        // an indented line continues the list's last item
        open.items[open.items.length - 1] += ` ${line.trim()}`
      } else if (open?.kind === 'paragraph') open.lines.push(line.trim())
      else {
        close()
        current = { kind: 'paragraph', lines: [line.trim()] }
      }
    }
  }
  close()
  return blocks
}

/**
 * A Markdown text as HTML, every character escaped but the subset's own tags. Headings start at
 * `<h2>`: the page's title is its `<h1>`; the text's first `# heading`, when it has one, is the
 * title (titleOf).
 */
export function markdownHtml(markdown: string): string {
  return blocksOf(markdown)
    .map((block) => {
      if (block.kind === 'heading') {
        const level = Math.min(block.level + 1, 4)
        return `<h${level}>${inlineHtml(block.text)}</h${level}>`
      }
      if (block.kind === 'paragraph') return `<p>${inlineHtml(block.lines.join(' '))}</p>`
      if (block.kind === 'list') {
        const tag = block.ordered ? 'ol' : 'ul'
        return `<${tag}>${block.items.map((item) => `<li>${inlineHtml(item)}</li>`).join('')}</${tag}>`
      }
      return '<hr>'
    })
    .join('\n')
}

/** The text's title, its first line when that is a `# heading`, and the rest of the text. */
export function titleOf(markdown: string): { title: string | null; body: string } {
  const match = /^\s*#\s+(.+?)\s*(?:\n|$)/.exec(markdown)
  return match
    ? { title: match[1] ?? null, body: markdown.slice(match[0].length) }
    : { title: null, body: markdown }
}
