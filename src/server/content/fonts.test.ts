import { describe, expect, it } from 'vitest'
import { emojiDataUri, emojiFileName, fontStack } from './fonts.ts'

describe('fontStack', () => {
  it('puts the named bundled family first, each with its latin-ext half, then the default', () => {
    expect(fontStack("'Dancing Script', cursive")).toBe(
      "'Dancing Script', 'Dancing Script Ext', 'Noto Sans', 'Noto Sans Ext'",
    )
    expect(fontStack('Comic Sans MS, sans-serif')).toBe("'Noto Sans', 'Noto Sans Ext'")
    expect(fontStack(undefined)).toBe("'Noto Sans', 'Noto Sans Ext'")
  })
})

describe('emoji', () => {
  it('names Twemoji files the way Twemoji does', () => {
    expect(emojiFileName('❤️')).toBe('2764.svg')
    expect(emojiFileName('👩‍👧')).toBe('1f469-200d-1f467.svg')
    expect(emojiFileName('🇫🇷')).toBe('1f1eb-1f1f7.svg')
  })

  it('finds a picture for common emoji and none for a non-emoji', async () => {
    expect(await emojiDataUri('❤️')).toMatch(/^data:image\/svg\+xml;base64,/)
    expect(await emojiDataUri('❤')).toMatch(/^data:image\/svg\+xml;base64,/)
    expect(await emojiDataUri('x')).toBeNull()
  })
})
