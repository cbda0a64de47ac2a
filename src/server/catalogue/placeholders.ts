// The names a template's html writes between {{ and }}. A scan, not a regular expression: a pattern
// such as \{\{\s*(…*?)\s*\}\} tries every split of a long run of spaces between its three parts, and
// `{{` followed by a few thousand spaces then kept the event loop busy for seconds (cubic time).
// Each character here is read a bounded number of times, whatever the input.

/** Every `{{ name }}` in `html`, names trimmed, in order; `{{` without a brace-free `}}` after it is no placeholder. */
export function placeholderNames(html: string): string[] {
  const names: string[] = []
  let from = 0
  for (;;) {
    const open = html.indexOf('{{', from)
    if (open < 0) return names
    const inner = open + 2
    const brace = nextBrace(html, inner)
    if (brace < 0) return names
    if (html[brace] === '}' && html[brace + 1] === '}') {
      names.push(html.slice(inner, brace).trim())
      from = brace + 2
    } else {
      // the run between `{{` and this brace has no brace in it, so no placeholder can start inside it
      // other than at the next `{`: start from `{{`'s second brace when it is one, else at this brace
      from = brace === inner ? open + 1 : brace
    }
  }
}

function nextBrace(text: string, from: number): number {
  for (let i = from; i < text.length; i++) {
    const c = text.charCodeAt(i)
    if (c === 0x7b || c === 0x7d) return i
  }
  return -1
}
