import type { MessageDescriptor } from '@lingui/core'
import { msg } from '@lingui/core/macro'

// What each action of the audit log means, in the operator's words (the log keeps the action's
// stable name: src/server/auth/repo.ts recordAudit). An action not listed here yet is shown by its
// name, so a new one is never hidden.

export const AUDIT_ACTIONS: Record<string, MessageDescriptor> = {
  sign_in: msg`Signed in`,
  sign_in_failed: msg`Failed to sign in`,
  sign_in_limited: msg`Sign-in refused: too many attempts`,
  sign_out: msg`Signed out`,
  set_password: msg`Set a password`,
  operator_added: msg`Operator added`,
  operator_link_reset: msg`Set-password link made again`,
  approve: msg`Approved an order`,
  cancel: msg`Cancelled an order`,
  auto_cancel: msg`Order cancelled by itself (review ran past its first slot)`,
  refund_failed: msg`A refund failed`,
  catalogue_import: msg`Imported the catalogue`,
  player_link: msg`Made a player link`,
  campaign_approve: msg`Approved a campaign's ad`,
  campaign_reject: msg`Refused a campaign's ad`,
  campaign_cancel: msg`Cancelled a campaign`,
  advertiser_verify: msg`Verified an advertiser's account by hand`,
  campaign_charge_refund: msg`Refunded a campaign's charge (credit note)`,
}

/** The detail's keys as the log shows them; others keep their own name. */
export const AUDIT_DETAIL_KEYS: Record<string, MessageDescriptor> = {
  deviceId: msg`billboard`,
  reason: msg`reason`,
  scope: msg`limit`,
  role: msg`role`,
  email: msg`e-mail`,
  campaignId: msg`campaign`,
  events: msg`events`,
  billboards: msg`billboards`,
  error: msg`error`,
  accountId: msg`account`,
  day: msg`day`,
  amountCents: msg`amount (cents)`,
  creditNote: msg`credit note`,
}
