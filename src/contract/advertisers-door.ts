import * as v from 'valibot'
import { ADVERTISER_PASSWORD_MAX_LENGTH } from '../domain/advertiser-account'
import { CoordinatesSchema, freeText, LocaleSchema, text } from './common'
import { endpoint } from './endpoint'

// api-v1 "Advertisers", the way in: what the public /advertise page shows of the billboards sold to
// advertisers (read-only, the same for everyone, cached and limited per address), the verification
// link sent again, and how strong a password is while it is typed (the server's own judge, the one
// sign-up applies, so the page never says "strong" of a password the sign-up then refuses).

export const BillboardForSaleSchema = v.object({
  deviceId: v.string(),
  location: v.string(),
  city: v.string(),
  country: v.string(),
  timeZoneId: v.string(),
  coordinates: CoordinatesSchema,
  imageUrl: v.string(),
  /** People who see one play (the billboard's audience). */
  impressionsPerPlay: v.number(),
  currency: v.string(),
  costCentsPerPlay: v.number(),
})
export type BillboardForSale = v.InferOutput<typeof BillboardForSaleSchema>

export const BillboardsForSaleSchema = v.object({ billboards: v.array(BillboardForSaleSchema) })

export const ResendVerificationSchema = v.strictObject({ email: text(320) })

export const PasswordStrengthRequestSchema = v.strictObject({
  password: v.pipe(v.string(), v.maxLength(ADVERTISER_PASSWORD_MAX_LENGTH)),
  /** The account's own words (its e-mail, name, company): a password made of them is weak. */
  // each may be left out or empty (a form not filled in yet): the document's default is ''
  email: v.optional(freeText(320), ''),
  name: v.optional(freeText(100), ''),
  company: v.optional(freeText(100), ''),
  locale: v.optional(LocaleSchema),
})

/** zxcvbn's score (0 to 4) and whether sign-up takes it (PASSWORD_MIN_SCORE). */
export const PasswordStrengthSchema = v.object({
  score: v.pipe(v.number(), v.integer(), v.minValue(0), v.maxValue(4)),
  strongEnough: v.boolean(),
})
export type PasswordStrength = v.InferOutput<typeof PasswordStrengthSchema>

export const advertiserDoor = {
  billboardsForSale: endpoint({
    name: 'advertiserBillboardsForSale',
    method: 'GET',
    path: '/advertisers/billboards',
    summary:
      'The billboards sold to advertisers, their audience and price per play (public, cached for 5 minutes)',
    response: BillboardsForSaleSchema,
    errors: ['too_many_requests'],
  }),
  resendVerification: endpoint({
    name: 'advertiserResendVerification',
    method: 'POST',
    path: '/advertisers/accounts/verify/resend',
    summary:
      'A new verification link for an account not verified yet (the same answer whether or not the e-mail has one)',
    body: ResendVerificationSchema,
    response: v.object({}),
    status: 202,
    errors: ['too_many_requests'],
  }),
  passwordStrength: endpoint({
    name: 'advertiserPasswordStrength',
    method: 'POST',
    path: '/advertisers/password-strength',
    summary:
      "How strong a password is, by sign-up's own judge (the password is neither kept nor logged)",
    body: PasswordStrengthRequestSchema,
    response: PasswordStrengthSchema,
    errors: ['too_many_requests'],
  }),
} as const
