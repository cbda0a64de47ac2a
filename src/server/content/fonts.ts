// Fonts bundled through npm packages (@fontsource/*), so a fresh machine renders the same billboard as
// this one: nothing is read from the system's font folders. The latin and latin-ext subsets together
// cover French and German (é è ç œ ä ö ü ß ẞ) and the rest of Western and Central Europe (
// Rendering: "bundled fonts that cover French and German"). Emoji are drawn from Twemoji's SVG files
// (@twemoji/svg; graphics CC-BY 4.0 by Twitter and contributors): shoppers type ❤️ and 🎉.
import { readFile } from 'node:fs/promises'
import { createRequire } from 'node:module'
import type { Font, FontStyle, FontWeight } from 'satori'

const require = createRequire(import.meta.url)

type FontFile = { family: string; pkg: string; file: string; weight: FontWeight; style: FontStyle }

// satori keeps one font per family name, weight and style, so the latin-ext half of a family is loaded
// under its own name and every family is used as the stack [family, family Ext, default, default Ext].
const EXT = ' Ext'

/** The family a template gets when it names none (or one that is not bundled). */
export const DEFAULT_FONT_FAMILY = 'Noto Sans'
export const BUNDLED_FONT_FAMILIES = ['Noto Sans', 'Dancing Script'] as const

function files(): FontFile[] {
  const list: FontFile[] = []
  for (const subset of ['latin', 'latin-ext']) {
    for (const weight of [400, 700] as const) {
      for (const style of ['normal', 'italic'] as const) {
        list.push({
          family: subset === 'latin' ? 'Noto Sans' : `Noto Sans${EXT}`,
          pkg: '@fontsource/noto-sans',
          file: `noto-sans-${subset}-${weight}-${style}.woff`,
          weight,
          style,
        })
      }
      list.push({
        family: subset === 'latin' ? 'Dancing Script' : `Dancing Script${EXT}`,
        pkg: '@fontsource/dancing-script',
        file: `dancing-script-${subset}-${weight}-normal.woff`,
        weight,
        style: 'normal',
      })
    }
  }
  // The default family first: satori falls back to fonts in the order they were given.
  const rank = (font: FontFile) => (font.family.startsWith(DEFAULT_FONT_FAMILY) ? 0 : 1)
  return list.sort((a, b) => rank(a) - rank(b))
}

/**
 * The font stack satori gets for a CSS font-family value: the bundled families it names (quotes and
 * generic names ignored), each with its latin-ext half, then the default family.
 */
export function fontStack(cssValue: string | undefined): string {
  const named = (cssValue ?? '').split(',').map((name) =>
    name
      .trim()
      .replace(/^['"]|['"]$/g, '')
      .toLowerCase(),
  )
  const families = BUNDLED_FONT_FAMILIES.filter((family) => named.includes(family.toLowerCase()))
  const ordered = [...new Set([...families, DEFAULT_FONT_FAMILY])]
  return ordered.flatMap((family) => [`'${family}'`, `'${family}${EXT}'`]).join(', ')
}

let loaded: Promise<Font[]> | null = null

/** Reads the bundled fonts once per process (satori parses them on first use, ~100 ms). */
export function loadFonts(): Promise<Font[]> {
  loaded ??= Promise.all(
    files().map(async (font) => ({
      name: font.family,
      data: await readFile(require.resolve(`${font.pkg}/files/${font.file}`)),
      weight: font.weight,
      style: font.style,
    })),
  ).catch((error: unknown) => {
    loaded = null
    throw error
  })
  return loaded
}

const emojiCache = new Map<string, string | null>()
const VARIATION_SELECTOR = /\uFE0F/g

/** Twemoji's file name for an emoji: code points in hex joined by '-', FE0F dropped outside ZWJ sequences. */
export function emojiFileName(emoji: string): string {
  const text = emoji.includes('\u200D') ? emoji : emoji.replace(VARIATION_SELECTOR, '')
  return `${[...text].map((char) => char.codePointAt(0)?.toString(16)).join('-')}.svg`
}

/** An emoji as an SVG data URI for satori, or null when Twemoji has no picture for it. */
export async function emojiDataUri(emoji: string): Promise<string | null> {
  const cached = emojiCache.get(emoji)
  if (cached !== undefined) return cached
  let uri: string | null = null
  for (const name of [emojiFileName(emoji), emojiFileName(emoji.replace(VARIATION_SELECTOR, ''))]) {
    try {
      const svg = await readFile(require.resolve(`@twemoji/svg/${name}`))
      uri = `data:image/svg+xml;base64,${svg.toString('base64')}`
      break
    } catch {
      // Not this spelling of the sequence; try the next.
    }
  }
  // Bounded: a message holds at most a few hundred characters, the cache a few thousand emoji.
  if (emojiCache.size < 4000) emojiCache.set(emoji, uri)
  return uri
}
