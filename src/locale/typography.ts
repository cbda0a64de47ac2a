// French typography, once: a narrow no-break space (U+202F) before `:`, `;`, `?` and `!` ("Étape 1
// sur 6 : ", "Vraiment ?"), replacing whatever space was typed there, so that the sign never starts a
// line. Not inside a time ("08:00"), an address ("https://") or a query ("?device="): a sign is
// spaced only when it ends a word (whitespace, the end, a closing mark or a tag follow it). The
// French catalogs are written so (the catalog test checks every message with this rule) and
// French text made in code goes through it.

const NARROW_NO_BREAK_SPACE = '\u202f'

// the sign after a word (a placeholder, a quote, a tag, a number), whatever space was typed, and
// before a space, the end, a closing mark or a tag; "?!" keeps its second sign beside the first
const BEFORE_SIGN = /([^\s(?!:;])[ \u00a0\u202f]?([:;?!])(?=[\s"»)<\]?!]|$)/g

/** A French text with its typography: a narrow no-break space before `:`, `;`, `?` and `!`. */
export function frenchTypography(text: string): string {
  return text.replace(BEFORE_SIGN, `$1${NARROW_NO_BREAK_SPACE}$2`)
}
