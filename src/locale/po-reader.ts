// Reads the msgid/msgstr pairs of a Lingui .po catalog (continuation lines included; the header entry,
// whose msgid is empty, is left out), with the source files each message comes from (its `#:` lines).
// Plain TypeScript, no Node: the catalog test reads the files with it, and the build splits each
// catalog in two with it (./catalog-parts.ts).

export type PoEntry = { id: string; str: string; origins: string[] }

export function readPoEntries(text: string): PoEntry[] {
  const entries: PoEntry[] = []
  const unquote = (s: string) => JSON.parse(s.trim()) as string
  let id: string | null = null
  let str: string | null = null
  let origins: string[] = []
  // the `#:` lines come before the msgid they belong to
  let nextOrigins: string[] = []
  let target: 'id' | 'str' | null = null
  const flush = () => {
    if (id !== null && id !== '') entries.push({ id, str: str ?? '', origins })
    id = null
    str = null
    origins = []
    target = null
  }
  for (const raw of text.split('\n')) {
    const line = raw.trim()
    if (line.startsWith('#: ')) {
      // 'src/app/x.tsx:12 src/app/y.tsx:3': the files, without their line numbers
      for (const origin of line.slice(3).trim().split(/\s+/)) {
        nextOrigins.push(origin.replace(/:\d+$/, ''))
      }
    } else if (line.startsWith('msgid ')) {
      flush()
      origins = nextOrigins
      nextOrigins = []
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
