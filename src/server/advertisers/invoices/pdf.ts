import { readFile } from 'node:fs/promises'
import { createRequire } from 'node:module'
import { inflateSync } from 'node:zlib'
import fontkit from '@pdf-lib/fontkit'
import { PDFDocument, type PDFFont, type PDFPage, rgb } from 'pdf-lib'
import { formatMoney } from '../../../domain/money.ts'
import { sayAll } from '../../platform/i18n.ts'
import { INVOICE_MESSAGES } from './messages.ts'
import type { InvoiceRow } from './repo.ts'

// An invoice or credit note as a PDF (pdf-lib), in its account's language, with the shop's font
// (Noto Sans from @fontsource, as the billboards' content uses it: content/fonts.ts). fontkit reads
// the WOFF files (its subsetting fails on WOFF2); the latin and latin-ext halves are both embedded,
// each run of text drawn with the half that has its letters, so "Łódź" prints as well as "Zürich".

const require = createRequire(import.meta.url)
const fontFile = async (subset: string, weight: number) =>
  sfntOfWoff(
    await readFile(
      require.resolve(`@fontsource/noto-sans/files/noto-sans-${subset}-${weight}-normal.woff`),
    ),
  )

/**
 * A WOFF file unpacked into the plain font (sfnt) it wraps, once: fontkit inflates a WOFF's tables
 * again on every read, which made each PDF's subset take most of a second.
 */
export function sfntOfWoff(woff: Buffer): Buffer {
  if (woff.toString('latin1', 0, 4) !== 'wOFF') return woff
  const count = woff.readUInt16BE(12)
  const tables = Array.from({ length: count }, (_, i) => {
    const at = 44 + i * 20
    const offset = woff.readUInt32BE(at + 4)
    const compressed = woff.readUInt32BE(at + 8)
    const length = woff.readUInt32BE(at + 12)
    const raw = woff.subarray(offset, offset + compressed)
    return {
      tag: woff.readUInt32BE(at),
      checksum: woff.readUInt32BE(at + 16),
      data: compressed < length ? inflateSync(raw) : raw,
    }
  })
  const power = 2 ** Math.floor(Math.log2(count))
  const head = Buffer.alloc(12 + count * 16)
  head.writeUInt32BE(woff.readUInt32BE(4), 0)
  head.writeUInt16BE(count, 4)
  head.writeUInt16BE(power * 16, 6)
  head.writeUInt16BE(Math.log2(power), 8)
  head.writeUInt16BE(count * 16 - power * 16, 10)
  const parts: Buffer[] = [head]
  let offset = head.length
  tables.forEach((table, i) => {
    head.writeUInt32BE(table.tag, 12 + i * 16)
    head.writeUInt32BE(table.checksum, 16 + i * 16)
    head.writeUInt32BE(offset, 20 + i * 16)
    head.writeUInt32BE(table.data.length, 24 + i * 16)
    const padded = Buffer.alloc(Math.ceil(table.data.length / 4) * 4)
    table.data.copy(padded)
    parts.push(padded)
    offset += padded.length
  })
  return Buffer.concat(parts)
}

let fontBytes: Promise<Record<'regular' | 'bold' | 'regularExt' | 'boldExt', Buffer>> | null = null
function fonts() {
  fontBytes ??= (async () => ({
    regular: await fontFile('latin', 400),
    bold: await fontFile('latin', 700),
    regularExt: await fontFile('latin-ext', 400),
    boldExt: await fontFile('latin-ext', 700),
  }))().catch((error: unknown) => {
    fontBytes = null
    throw error
  })
  return fontBytes
}

// fontkit unpacks a WOFF file on each `create` (most of a PDF's time): each file is read once per
// process and its font kept, for every PDF after (a subset is made from it without changing it)
type Fontkit = Parameters<PDFDocument['registerFontkit']>[0]
const parsed = new Map<Uint8Array, ReturnType<Fontkit['create']>>()
const cachedFontkit: Fontkit = {
  create(bytes, postscriptName) {
    const key = bytes as Uint8Array
    let font = parsed.get(key)
    if (!font) {
      font = fontkit.create(bytes, postscriptName)
      parsed.set(key, font)
    }
    return font
  },
}

type Face = { main: PDFFont; ext: PDFFont; has: Set<number> }

/** Splits a text into runs, each with the half of the font that has its letters. */
function runs(face: Face, text: string): { font: PDFFont; text: string }[] {
  const out: { font: PDFFont; text: string }[] = []
  // French groups thousands with a narrow no-break space, which neither half of the font has
  for (const char of text.replaceAll('\u202f', '\u00a0')) {
    const font = face.has.has(char.codePointAt(0) ?? 0) ? face.main : face.ext
    const last = out[out.length - 1]
    if (last && last.font === font) last.text += char
    else out.push({ font, text: char })
  }
  return out
}

const widthOf = (face: Face, text: string, size: number) =>
  runs(face, text).reduce((w, r) => w + r.font.widthOfTextAtSize(r.text, size), 0)

function draw(page: PDFPage, face: Face, text: string, x: number, y: number, size: number) {
  let at = x
  for (const run of runs(face, text)) {
    page.drawText(run.text, { x: at, y, size, font: run.font, color: rgb(0.1, 0.1, 0.1) })
    at += run.font.widthOfTextAtSize(run.text, size)
  }
}

const TAGS = { en: 'en-GB', fr: 'fr-FR', de: 'de-DE' } as const

export async function invoicePdf(invoice: InvoiceRow): Promise<Uint8Array> {
  const t = sayAll(invoice.locale, INVOICE_MESSAGES)
  const tag = TAGS[invoice.locale]
  const money = (cents: number) =>
    formatMoney(cents, { currency: invoice.currency, locale: invoice.locale })
  const count = (n: number) => new Intl.NumberFormat(tag).format(n)
  const date = (epochMs: number) =>
    new Intl.DateTimeFormat(tag, { dateStyle: 'long', timeZone: 'UTC' }).format(epochMs)
  const bytes = await fonts()
  const doc = await PDFDocument.create()
  doc.registerFontkit(cachedFontkit)
  const title = invoice.kind === 'invoice' ? t.invoice() : t.creditNote()
  doc.setTitle(`${title} ${invoice.label}`)
  doc.setAuthor(invoice.seller.legalName)
  doc.setLanguage(tag)
  const face = async (main: Buffer, ext: Buffer): Promise<Face> => {
    const m = await doc.embedFont(main, { subset: true })
    return {
      main: m,
      ext: await doc.embedFont(ext, { subset: true }),
      has: new Set(m.getCharacterSet()),
    }
  }
  const regular = await face(bytes.regular, bytes.regularExt)
  const bold = await face(bytes.bold, bytes.boldExt)

  const page = doc.addPage([595.28, 841.89]) // A4
  const left = 50
  const right = 545
  let y = 790
  draw(page, bold, title, left, y, 22)
  y -= 28
  const facts: [string, string][] = [
    [t.number(), invoice.label],
    [t.issued(), date(invoice.issuedAtEpochMs)],
    ...(invoice.refersToLabel ? [[t.refersTo(), invoice.refersToLabel] as [string, string]] : []),
  ]
  for (const [label, value] of facts) {
    draw(page, regular, `${label}:`, left, y, 10)
    draw(page, bold, value, left + 140, y, 10)
    y -= 15
  }

  // the two parties side by side
  y -= 15
  const party = (
    x: number,
    heading: string,
    p: { legalName: string; address: string; vatNumber: string | null },
  ) => {
    let at = y
    draw(page, bold, heading, x, at, 9)
    at -= 15
    draw(page, bold, p.legalName, x, at, 11)
    at -= 14
    for (const line of p.address.split('\n')) {
      draw(page, regular, line, x, at, 10)
      at -= 13
    }
    if (p.vatNumber) draw(page, regular, `${t.vatNumber()}: ${p.vatNumber}`, x, at, 10)
    return at - 13
  }
  const below = Math.min(
    party(left, t.seller(), invoice.seller),
    party(320, t.buyer(), invoice.buyer),
  )
  y = below - 10
  draw(page, regular, `${t.campaign()}: ${invoice.campaignName}`, left, y, 10)
  y -= 14
  draw(page, regular, `${t.day()}: ${date(Date.parse(`${invoice.day}T12:00:00Z`))}`, left, y, 10)
  y -= 26

  // the lines
  const columns = [
    { label: t.billboard(), x: left, align: 'left' as const },
    { label: t.plays(), x: 315, align: 'right' as const },
    { label: t.impressions(), x: 390, align: 'right' as const },
    { label: t.unitPrice(), x: 470, align: 'right' as const },
    { label: t.amount(), x: right, align: 'right' as const },
  ]
  const cell = (f: Face, text: string, column: (typeof columns)[number], size = 9) =>
    draw(
      page,
      f,
      text,
      column.align === 'left' ? column.x : column.x - widthOf(f, text, size),
      y,
      size,
    )
  for (const column of columns) cell(bold, column.label, column, 8)
  y -= 6
  page.drawLine({ start: { x: left, y }, end: { x: right, y }, thickness: 0.5 })
  y -= 14
  const [billboard, plays, impressions, unit, amount] = columns as [
    (typeof columns)[number],
    (typeof columns)[number],
    (typeof columns)[number],
    (typeof columns)[number],
    (typeof columns)[number],
  ]
  // a billboard's name is cut to its column (the id and the whole name are in the campaign's report)
  const fitted = (text: string) => {
    let shown = text
    while (shown.length > 1 && widthOf(regular, shown, 9) > 205) shown = shown.slice(0, -1)
    return shown === text ? text : `${shown.trimEnd()}…`
  }
  for (const line of invoice.lines) {
    cell(regular, fitted(line.deviceId ? line.label : line.label || t.budgetCap()), billboard)
    if (line.deviceId) {
      cell(regular, count(line.plays), plays)
      cell(regular, count(line.impressions), impressions)
      cell(regular, money(line.unitCents), unit)
    }
    cell(regular, money(line.amountCents), amount)
    y -= 15
    if (y < 160) break
  }
  page.drawLine({ start: { x: left, y: y + 6 }, end: { x: right, y: y + 6 }, thickness: 0.5 })
  y -= 10

  // the totals, then why there is no VAT, if there is none
  const rate = `${new Intl.NumberFormat(tag, { maximumFractionDigits: 2 }).format(invoice.vatRateBasisPoints / 100)} %`
  const totals: [string, number, Face][] = [
    [t.net(), invoice.netCents, regular],
    [t.vat({ rate }), invoice.vatCents, regular],
    [t.gross(), invoice.grossCents, bold],
  ]
  for (const [label, cents, f] of totals) {
    draw(page, f, label, 330, y, 10)
    const value = money(cents)
    draw(page, f, value, right - widthOf(f, value, 10), y, 10)
    y -= 16
  }
  y -= 10
  const notes = [
    ...(invoice.vatExemption === 'reverse_charge' ? [t.reverseCharge()] : []),
    ...(invoice.vatExemption === 'outside_eu' ? [t.outsideEu()] : []),
    invoice.kind === 'invoice' ? t.paid() : t.refunded(),
  ]
  for (const note of notes) {
    draw(page, regular, note, left, y, 9)
    y -= 13
  }
  return doc.save()
}
