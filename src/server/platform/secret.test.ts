import { describe, expect, it } from 'vitest'
import { newSecret, secretHash } from './secret.ts'

describe('secrets', () => {
  it('makes 256-bit URL-safe secrets, a new one each time', () => {
    const a = newSecret()
    expect(a).toMatch(/^[A-Za-z0-9_-]{43}$/)
    expect(Buffer.from(a, 'base64url')).toHaveLength(32)
    expect(newSecret()).not.toBe(a)
  })

  it('stores the SHA-256 in hex (the rows already stored are looked up by it)', () => {
    expect(secretHash('abc')).toBe(
      'ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad',
    )
  })
})
