import { describe, expect, it } from 'vitest'
import { csvCell, csvText } from './csv.ts'

describe('a CSV cell', () => {
  it('is the text as it is when nothing in it needs quoting', () => {
    expect(csvCell('paris-opera-1')).toBe('paris-opera-1')
    expect(csvCell('2030-05-07')).toBe('2030-05-07')
    expect(csvCell('')).toBe('')
    expect(csvCell('a=b')).toBe('a=b')
  })

  it('quotes a comma, a quote or a line break, doubling the quotes (RFC 4180)', () => {
    expect(csvCell('Place de l’Opéra, north')).toBe('"Place de l’Opéra, north"')
    expect(csvCell('the "big" one')).toBe('"the ""big"" one"')
    expect(csvCell('two\nlines')).toBe('"two\nlines"')
  })

  it('writes a text that a spreadsheet would run as a formula after a single quote (OWASP)', () => {
    expect(csvCell('=HYPERLINK("http://evil.example","Click")')).toBe(
      '"\'=HYPERLINK(""http://evil.example"",""Click"")"',
    )
    expect(csvCell("+1+cmd|' /C calc'!A0")).toBe("\"'+1+cmd|' /C calc'!A0\"")
    expect(csvCell('-2+3')).toBe('"\'-2+3"')
    expect(csvCell('@SUM(A1:A9)')).toBe('"\'@SUM(A1:A9)"')
    expect(csvCell('\t=1+1')).toBe('"\'\t=1+1"')
    expect(csvCell('\r=1+1')).toBe('"\'\r=1+1"')
  })

  it('writes numbers as they are, negative ones too', () => {
    expect(csvCell(0)).toBe('0')
    expect(csvCell(96000)).toBe('96000')
    expect(csvCell(-5)).toBe('-5')
    expect(csvCell(1.5)).toBe('1.5')
  })
})

describe('a CSV file', () => {
  it('is a header and one line a row, every cell guarded, CRLF after each line', () => {
    expect(
      csvText(
        ['day', 'deviceId', 'plays'],
        [
          ['2030-05-07', 'paris-opera-1', 3],
          ['2030-05-08', '=1+1', 0],
        ],
      ),
    ).toBe('day,deviceId,plays\r\n2030-05-07,paris-opera-1,3\r\n2030-05-08,"\'=1+1",0\r\n')
  })

  it('guards the header too', () => {
    expect(csvText(['=x'], [])).toBe('"\'=x"\r\n')
  })
})
