import { describe, expect, it } from 'vitest'
import { limitKey } from './client.ts'

describe('the key a rate limit counts a client by', () => {
  it('is an IPv4 address as it is', () => {
    expect(limitKey('203.0.113.9')).toBe('203.0.113.9')
    expect(limitKey('unknown')).toBe('unknown')
  })

  it('is the /64 of an IPv6 address, however it is written', () => {
    expect(limitKey('2001:db8:1:2::1')).toBe('2001:db8:1:2::/64')
    expect(limitKey('2001:0db8:0001:0002:ffff:ffff:ffff:ffff')).toBe('2001:db8:1:2::/64')
    expect(limitKey('2001:DB8:1:2:a:b:c:d')).toBe('2001:db8:1:2::/64')
    expect(limitKey('fe80::1%eth0')).toBe('fe80:0:0:0::/64')
    expect(limitKey('::1')).toBe('0:0:0:0::/64')
    expect(limitKey('2001:db8::')).toBe('2001:db8:0:0::/64')
    expect(limitKey('64:ff9b::192.0.2.1')).toBe('64:ff9b:0:0::/64')
    expect(limitKey('2001:db8:1:3::1')).not.toBe(limitKey('2001:db8:1:2::1'))
  })

  it('is the IPv4 address of an IPv4-mapped IPv6 one', () => {
    expect(limitKey('::ffff:203.0.113.9')).toBe('203.0.113.9')
    expect(limitKey('::ffff:cb00:7109')).toBe('203.0.113.9')
  })
})
