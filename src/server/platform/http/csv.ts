// Every CSV the shop writes goes through here: RFC 4180's quoting, and OWASP's guard against CSV
// injection (https://owasp.org/www-community/attacks/CSV_Injection). A spreadsheet that opens the
// file runs a cell starting with = + - @ (or a tab or carriage return before one) as a formula:
// `=HYPERLINK(...)` sends whoever clicks it elsewhere, DDE formulas run commands. The text of such a
// cell is written after a single quote, which the spreadsheet shows as text; the quote stays visible
// in the cell, which is the price of never running it. Text from outside (a catalogue's billboard
// id, a name) can start that way, so every text cell is guarded, not only the columns known today.

/** The first characters that make a spreadsheet read a cell as a formula (OWASP's list). */
const FORMULA_START = /^[=+\-@\t\r]/

/**
 * One cell. A number is written as JavaScript prints it (digits, a sign, a point: never a formula).
 * A text that starts like a formula gets a leading single quote; a text with a comma, a quote or a line
 * break (or a guarded one) is quoted, its quotes doubled.
 */
export function csvCell(value: string | number): string {
  if (typeof value === 'number') return String(value)
  const guarded = FORMULA_START.test(value)
  const text = guarded ? `'${value}` : value
  return guarded || /[",\r\n]/.test(text) ? `"${text.replace(/"/g, '""')}"` : text
}

/** A CSV file: the header, then one line per row, each line ended by CRLF (as RFC 4180 writes it). */
export function csvText(
  header: readonly string[],
  rows: Iterable<readonly (string | number)[]>,
): string {
  const lines = [header.map(csvCell).join(',')]
  for (const row of rows) lines.push(row.map(csvCell).join(','))
  return `${lines.join('\r\n')}\r\n`
}
