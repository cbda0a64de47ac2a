import { describe, expect, it } from 'vitest'
import { customerEmailKey } from './customer-email'

describe('customerEmailKey (spec §5 once per customer)', () => {
  it('folds Gmail dots, +tags and googlemail.com into one mailbox', () => {
    for (const typed of [
      'once@gmail.com',
      'Once+1@gmail.com',
      'o.n.c.e@gmail.com',
      'o.nce+promo@googlemail.com',
      '  ONCE@GMAIL.COM ',
    ]) {
      expect(customerEmailKey(typed), typed).toBe('once@gmail.com')
    }
  })
  it('drops +tags where the provider documents plus addressing, keeps dots there', () => {
    expect(customerEmailKey('ana.l+shouts@outlook.com')).toBe('ana.l@outlook.com')
    expect(customerEmailKey('ana+x@icloud.com')).toBe('ana@icloud.com')
    expect(customerEmailKey('ana+x@proton.me')).toBe('ana@proton.me')
  })
  it('keeps other domains as typed, in lower case', () => {
    expect(customerEmailKey('Ana.L+1@Example.com')).toBe('ana.l+1@example.com')
    expect(customerEmailKey('+only@gmail.com')).toBe('+only@gmail.com')
  })
})
