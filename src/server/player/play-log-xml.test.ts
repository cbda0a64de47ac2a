import { describe, expect, it } from 'vitest'
import {
  MAX_PLAY_LOG_BYTES,
  MAX_TAG_CHARS,
  parsePlayLogXml,
  readPlayLogReport,
} from './play-log-xml.ts'

const played = (id: string) =>
  `<contentPlayed><contentId>${id}</contentId><startTime>2027-05-07T10:00:30+02:00</startTime><endTime>2027-05-07T10:00:45+02:00</endTime></contentPlayed>`
const garlic = (inside: string) =>
  `<?xml version="1.0" encoding="UTF-8"?>\n<report xmlns="http://schemas.garlic-player.com/gapi-1.0"><date>2027-05-07T08:01:00Z</date><version>1.0</version><player id="p-1"><contentPlayLog>${inside}</contentPlayLog></player></report>`

describe('reading a play log', () => {
  it("reads garlic's report: each contentPlayed's id and its times as written", () => {
    expect(readPlayLogReport(garlic(played('a') + played('b&amp;c')))).toEqual({
      kind: 'garlic',
      plays: [
        {
          contentId: 'a',
          startTime: '2027-05-07T10:00:30+02:00',
          endTime: '2027-05-07T10:00:45+02:00',
        },
        {
          contentId: 'b&c',
          startTime: '2027-05-07T10:00:30+02:00',
          endTime: '2027-05-07T10:00:45+02:00',
        },
      ],
    })
  })

  it("reads IAdea's adapi report, prefixed names too", () => {
    const xml = `<a:report xmlns:a="http://schemas.adfotain.org/adapi-1.0"><a:player id="x"><a:contentPlayLog>${played('z').replaceAll('<', '<a:').replaceAll('<a:/', '</a:')}</a:contentPlayLog></a:player></a:report>`
    expect(readPlayLogReport(xml)?.kind).toBe('iadea')
    expect(readPlayLogReport(xml)?.plays.map((p) => p.contentId)).toEqual(['z'])
  })

  it('refuses a DOCTYPE (no entity is ever declared or expanded), unknown entities and broken documents', () => {
    const laughs = `<?xml version="1.0"?><!DOCTYPE r [<!ENTITY a "aaaa"><!ENTITY b "&a;&a;&a;">]><report>&b;</report>`
    expect(parsePlayLogXml(laughs)).toBeNull()
    const external = `<!DOCTYPE r [<!ENTITY x SYSTEM "file:///etc/passwd">]><report>&x;</report>`
    expect(parsePlayLogXml(external)).toBeNull()
    expect(parsePlayLogXml('<report>&nbsp;</report>')).toBeNull()
    expect(parsePlayLogXml('<report>a & b</report>')).toBeNull()
    expect(parsePlayLogXml('<report><player></report>')).toBeNull()
    expect(parsePlayLogXml('<report/><report/>')).toBeNull()
    expect(parsePlayLogXml('text<report/>')).toBeNull()
    expect(parsePlayLogXml('<report a="1" b>x</report>')).toBeNull()
    expect(readPlayLogReport('<other/>')).toBeNull()
  })

  it('refuses bodies too deep, too large or with too many elements', () => {
    expect(parsePlayLogXml(`${'<a>'.repeat(13)}${'</a>'.repeat(13)}`)).toBeNull()
    expect(parsePlayLogXml(`${'<a>'.repeat(12)}${'</a>'.repeat(12)}`)).not.toBeNull()
    expect(parsePlayLogXml(`<r>${' '.repeat(MAX_PLAY_LOG_BYTES)}</r>`)).toBeNull()
    expect(parsePlayLogXml(`<r>${'<a/>'.repeat(3000)}</r>`)).toBeNull()
  })

  it('refuses a tag longer than a play log ever writes, attributes or not', () => {
    // a long run of name characters with no `=`: read once from where the tag name ends
    expect(parsePlayLogXml(`<report ${'a'.repeat(250_000)}></report>`)).toBeNull()
    expect(parsePlayLogXml(`<report a="${'x'.repeat(MAX_TAG_CHARS)}"/>`)).toBeNull()
    expect(parsePlayLogXml(`<report a="${'x'.repeat(100)}" b='y'/>`)?.attributes).toEqual({
      a: 'x'.repeat(100),
      b: 'y',
    })
    expect(parsePlayLogXml('<report a="1"b="2"/>')).toBeNull()
  })

  it('tells garlic by its namespace wherever the root declares it', () => {
    const xml = `<report xmlns:xsi="http://www.w3.org/2001/XMLSchema-instance" xmlns="http://schemas.garlic-player.com/gapi-1.0"><player id="p"/></report>`
    expect(readPlayLogReport(xml)?.kind).toBe('garlic')
  })

  it('decodes character references and keeps CDATA', () => {
    const root = parsePlayLogXml('<r t="&#65;&#x42;&lt;"><![CDATA[<x>]]></r>')
    expect(root?.attributes.t).toBe('AB<')
    expect(root?.text).toBe('<x>')
  })
})
