// Reads the msgid/msgstr pairs of a Lingui .po catalog (continuation lines included; the header entry,
// whose msgid is empty, is left out). Plain TypeScript, no Node: the catalog test reads the files with
// it, and the server fills the pre-rendered first screen from them (src/server/platform/prerender.ts).

export type PoEntry = { id: string; str: string }

export function readPoEntries(text: string): PoEntry[] {
  const entries: PoEntry[] = []
  const unquote = (s: string) => JSON.parse(s.trim()) as string
  let id: string | null = null
  let str: string | null = null
  let target: 'id' | 'str' | null = null
  const flush = () => {
    if (id !== null && id !== '') entries.push({ id, str: str ?? '' })
    id = null
    str = null
    target = null
  }
  for (const raw of text.split('\n')) {
    const line = raw.trim()
    if (line.startsWith('msgid ')) {
      flush()
      id = unquote(line.slice(6))
      target = 'id'
    } else if (line.startsWith('msgstr ')) {
      str = unquote(line.slice(7))
      target = 'str'
    } else if (line.startsWith('"') && target) {
      if (target === 'id') id = (id ?? '') + unquote(line)
      else str = (str ?? '') + unquote(line)
    } else if (line === '') {
      flush()
    }
  }
  flush()
  return entries
}
