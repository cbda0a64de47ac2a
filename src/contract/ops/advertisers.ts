import * as v from 'valibot'
import { EpochMsSchema, text } from '../common'
import { endpoint } from '../endpoint'

// api-v1 "Operations", advertisers' accounts in the console (admins): an account whose owner cannot
// receive the verification mail is verified by hand, after the admin has checked who asks (the
// audit log keeps who did it). Behind the operators' guard (session, role, Origin).

export const VerifyAdvertiserRequestSchema = v.strictObject({ email: text(320) })

export const VerifiedAdvertiserSchema = v.object({
  accountId: v.string(),
  email: v.string(),
  company: v.string(),
  /** false: it was verified already (nothing changed, nothing audited). */
  changed: v.boolean(),
  verifiedAtEpochMs: EpochMsSchema,
})
export type VerifiedAdvertiser = v.InferOutput<typeof VerifiedAdvertiserSchema>

export const opsAdvertisers = {
  verifyAdvertiser: endpoint({
    name: 'opsVerifyAdvertiser',
    method: 'POST',
    path: '/ops/advertisers/verify',
    summary: "Verifies an advertiser's e-mail by hand (admins; audited)",
    access: 'admin',
    body: VerifyAdvertiserRequestSchema,
    response: VerifiedAdvertiserSchema,
    errors: ['sign_in_required', 'role_forbidden', 'cross_origin', 'advertiser_not_found'],
  }),
} as const
