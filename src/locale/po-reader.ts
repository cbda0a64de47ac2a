// Reads the msgid/msgstr pairs of a Lingui .po catalog (continuation lines included; the header entry,
// whose msgid is empty, is left out), with the source files each message comes from (its `#:` lines).
// Plain TypeScript, no Node: the catalog test reads the files with it, and the build splits each
// catalog in two with it (./catalog-parts.ts).
//
// A message with an id of its own (`#. js-lingui-explicit-id`: the problems, whose id is their code,
// lingui.config.ts) has that id as its msgid, and in the English catalog its English as its msgstr;
// any other message's msgid is its English.

export type PoEntry = { id: string; str: string; origins: string[]; explicitId: boolean }

/** The English of an entry of the English catalog. */
export const englishOf = (entry: PoEntry): string => (entry.explicitId ? entry.str : entry.id)

export function readPoEntries(text: string): PoEntry[] {
  const entries: PoEntry[] = []
  const unquote = (s: string) => JSON.parse(s.trim()) as string
  let id: string | null = null
  let str: string | null = null
  let origins: string[] = []
  let explicitId = false
  // the `#:` and `#.` lines come before the msgid they belong to
  let nextOrigins: string[] = []
  let nextExplicit = false
  let target: 'id' | 'str' | null = null
  const flush = () => {
    if (id !== null && id !== '') entries.push({ id, str: str ?? '', origins, explicitId })
    id = null
    str = null
    origins = []
    explicitId = false
    target = null
  }
  for (const raw of text.split('\n')) {
    const line = raw.trim()
    if (line === '#. js-lingui-explicit-id') {
      nextExplicit = true
    } else if (line.startsWith('#: ')) {
      // 'src/app/x.tsx:12 src/app/y.tsx:3': the files, without their line numbers
      for (const origin of line.slice(3).trim().split(/\s+/)) {
        nextOrigins.push(origin.replace(/:\d+$/, ''))
      }
    } else if (line.startsWith('msgid ')) {
      flush()
      origins = nextOrigins
      nextOrigins = []
      explicitId = nextExplicit
      nextExplicit = false
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
