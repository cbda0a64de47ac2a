import * as v from 'valibot'
import { describe, expect, it } from 'vitest'
import {
  ContactInfoSchema,
  EmailSchema,
  FirstNameSchema,
  fieldError,
  fieldErrors,
  isWellFormedText,
  LastNameSchema,
  PhoneSchema,
} from './validation'

describe('EmailSchema (spec §5)', () => {
  it.each(['ada@example.com', 'a.b+shouts@mail.example.co.uk', '  ada@example.com  '])(
    'accepts %j',
    (email) => {
      expect(v.is(EmailSchema, email)).toBe(true)
    },
  )
  it('trims the address', () => {
    expect(v.parse(EmailSchema, ' ada@example.com ')).toBe('ada@example.com')
  })
  it.each(['', 'ada', 'ada@', '@example.com', 'ada@example', 'ada example@x.com', 42, null])(
    "rejects %j with email_invalid ('Email Address is invalid')",
    (email) => {
      expect(fieldError(EmailSchema, email)).toEqual({ code: 'email_invalid' })
    },
  )
})

describe('PhoneSchema (the wire: how a number is written; its country is phone.ts)', () => {
  it.each([
    '555-123-4567',
    '06 12 34 56 78',
    '+33 6 12 34 56 78',
    '(555) 123-4567',
    '+1.212.555.0100',
  ])('accepts %j', (phone) => {
    expect(fieldError(PhoneSchema, phone)).toBeNull()
  })
  it.each(['', '+', '12', 'call me', '+33 6 12 34 56 78 ext 9', '1-800-FLOWERS', null])(
    'rejects %j with phone_invalid',
    (phone) => {
      expect(fieldError(PhoneSchema, phone)).toEqual({ code: 'phone_invalid' })
    },
  )
})

describe('name schemas (spec §5)', () => {
  it('accepts names and trims them', () => {
    expect(v.parse(FirstNameSchema, '  Ada ')).toBe('Ada')
    expect(v.parse(LastNameSchema, 'Lovelace')).toBe('Lovelace')
  })
  it.each(['', '   ', undefined])('empty first name %j', (name) => {
    expect(fieldError(FirstNameSchema, name)).toEqual({ code: 'first_name_empty' })
  })
  it.each(['', '\t', undefined])('empty last name %j', (name) => {
    expect(fieldError(LastNameSchema, name)).toEqual({ code: 'last_name_empty' })
  })
  it.each([
    'Ana\r\nBcc: someone@example.com',
    'Ana\nLopez',
    'Ana\u0007',
    'Ana\u2028Lopez',
    'A\u0085B',
  ])('refuses a name that is not one line %j', (name) => {
    expect(fieldError(FirstNameSchema, name)).toEqual({ code: 'name_not_one_line' })
    expect(fieldError(LastNameSchema, name)).toEqual({ code: 'name_not_one_line' })
  })
  it('limits names to 100 characters', () => {
    expect(fieldError(FirstNameSchema, 'x'.repeat(100))).toBeNull()
    expect(fieldError(FirstNameSchema, 'x'.repeat(101))).toEqual({ code: 'first_name_too_long' })
    expect(fieldError(LastNameSchema, 'x'.repeat(101))).toEqual({ code: 'last_name_too_long' })
  })
})

describe('ContactInfoSchema and fieldErrors', () => {
  it('gives one problem per field', () => {
    expect(
      fieldErrors(ContactInfoSchema, { firstName: '', lastName: '', email: 'x', phone: '1' }),
    ).toEqual({
      firstName: { code: 'first_name_empty' },
      lastName: { code: 'last_name_empty' },
      email: { code: 'email_invalid' },
      phone: { code: 'phone_invalid' },
    })
  })
  it('is empty for valid contact info', () => {
    expect(
      fieldErrors(ContactInfoSchema, {
        firstName: 'Ada',
        lastName: 'Lovelace',
        email: 'ada@example.com',
        phone: '555-123-4567',
      }),
    ).toEqual({})
  })
  it('keys a problem with the whole value as the empty path', () => {
    expect(Object.keys(fieldErrors(ContactInfoSchema, null))).toEqual([''])
  })
})

describe('isWellFormedText', () => {
  it('refuses a lone surrogate, high or low, and keeps pairs (emoji) and plain text', () => {
    expect(isWellFormedText('Ana')).toBe(true)
    expect(isWellFormedText('Ana 💖')).toBe(true)
    expect(isWellFormedText('\ud800')).toBe(false)
    expect(isWellFormedText('a\udc00b')).toBe(false)
    expect(isWellFormedText('💖'.slice(0, 1))).toBe(false)
  })
  it('makes the name fields refuse ill-formed text', () => {
    expect(v.safeParse(ContactInfoSchema.entries.firstName, '\ud800').success).toBe(false)
  })
})
