import * as v from 'valibot'
import { OPERATOR_ROLES, PAYMENT_STATES, passwordProblem } from '../../domain/ops'
import { issueMessage } from '../../domain/problems'
import { wellFormed } from '../../domain/validation'
import {
  EmptyBodySchema,
  EpochMsSchema,
  issue,
  LocaleSchema,
  nonNegativeInt,
  ProblemSchema,
  text,
} from '../common'
import { endpoint } from '../endpoint'
import { OrderStateSchema, OrderSummarySchema } from '../order'

// api-v1 "Operations": the console's calls under /api/v1/ops. Every call but sign-in,
// sign-out and set-password needs an operator's session cookie (401 without), the role of its
// `access` (403 otherwise; admins may do all that reviewers do), and a state-changing call must come
// from the shop's own Origin (403). The server's guard (src/server/auth/guard.ts) reads `access`.

export const OperatorRoleSchema = v.picklist(OPERATOR_ROLES)

export const PasswordSchema = v.pipe(
  v.string(),
  wellFormed(),
  v.rawCheck(({ dataset, addIssue }) => {
    if (!dataset.typed) return
    const problem = passwordProblem(dataset.value)
    if (problem) addIssue({ message: issueMessage(problem.code, problem.params) })
  }),
)

export const SignInRequestSchema = v.strictObject({
  email: text(320),
  // Any string up to the bound: a wrong one answers 401 like a wrong e-mail, never a hint.
  password: v.pipe(v.string(), v.maxLength(1000)),
  /** The console's language: the operator's mails (a disputed payment) are written in it. */
  locale: v.optional(LocaleSchema),
})
export type SignInRequest = v.InferOutput<typeof SignInRequestSchema>

export const SetPasswordRequestSchema = v.strictObject({
  token: text(200),
  password: PasswordSchema,
})
export type SetPasswordRequest = v.InferOutput<typeof SetPasswordRequestSchema>

export const OperatorSchema = v.object({ email: v.string(), role: OperatorRoleSchema })
export type OperatorInfo = v.InferOutput<typeof OperatorSchema>

export const STATE_ACTORS = ['shopper', 'system', 'operator'] as const
export const StateActorSchema = v.picklist(STATE_ACTORS)

export const OrderStateChangeSchema = v.object({
  state: OrderStateSchema,
  atEpochMs: EpochMsSchema,
  actor: StateActorSchema,
  /** The operator who made the change (actor `operator`), else null. */
  operatorEmail: v.nullable(v.string()),
  /** why (a cancel's: order_cancelled with the operator's words, or the sweep's code) */
  reason: v.nullable(ProblemSchema),
})
export type OrderStateChange = v.InferOutput<typeof OrderStateChangeSchema>

export const REFUND_STATUSES = ['pending', 'succeeded', 'failed'] as const

/** A chargeback on the order's charge (Stripe's Dispute, kept up to date by its events). */
export const OpsDisputeSchema = v.object({
  disputeId: v.string(),
  amountCents: nonNegativeInt(),
  currency: v.string(),
  /** Stripe's reason: fraudulent, product_not_received, duplicate, general, … */
  reason: v.string(),
  /** Stripe's status: needs_response, under_review, won, lost, warning_needs_response, … */
  status: v.string(),
  /** When the evidence is due at Stripe (null when the bank allows no answer). */
  evidenceDueEpochMs: v.nullable(EpochMsSchema),
  openedAtEpochMs: EpochMsSchema,
  closedAtEpochMs: v.nullable(EpochMsSchema),
})
export type OpsDispute = v.InferOutput<typeof OpsDisputeSchema>

export const OpsPaymentSchema = v.object({
  /** Where the charge stands (domain/ops.ts paymentState). */
  state: v.picklist(PAYMENT_STATES),
  provider: v.nullable(v.string()),
  /** The provider's id of the charge (Stripe's PaymentIntent), null for a free or unpaid order. */
  paymentId: v.nullable(v.string()),
  brand: v.nullable(v.string()),
  last4: v.nullable(v.string()),
  /** What the shopper was charged (the order's total once it was paid; 0 when free or unpaid). */
  chargedCents: nonNegativeInt(),
  refundedCents: nonNegativeInt(),
  refund: v.nullable(
    v.object({
      status: v.picklist(REFUND_STATUSES),
      amountCents: nonNegativeInt(),
      /** the last failed attempt's problem, or why the card's bank refused it later */
      error: v.nullable(ProblemSchema),
      /** Stripe's own status of the refund (pending, succeeded, failed, canceled), null if none */
      providerStatus: v.nullable(v.string()),
      createdAtEpochMs: EpochMsSchema,
      completedAtEpochMs: v.nullable(EpochMsSchema),
    }),
  ),
  disputes: v.array(OpsDisputeSchema),
})
export type OpsPayment = v.InferOutput<typeof OpsPaymentSchema>

/**
 * An order as operators see it: the summary the shopper sees, plus the contact, what was typed, the
 * payment, what moderation found and every state the order went through.
 */
export const OpsOrderSchema = v.object({
  ...OrderSummarySchema.entries,
  createdAtEpochMs: EpochMsSchema,
  orderType: v.string(),
  contact: v.object({
    email: v.string(),
    firstName: v.string(),
    lastName: v.string(),
    phoneNumber: v.string(),
    willReceiveMarketing: v.boolean(),
  }),
  /** The texts the shopper typed for the billboard. */
  message: v.object({
    buyerName: v.string(),
    recipientName: v.string(),
    multilineMessage: v.string(),
  }),
  moderation: v.object({
    flagged: v.boolean(),
    /** Why it was flagged: the words matched (field, word, language), the nudity scores. */
    reasons: v.array(v.string()),
  }),
  /** When the first slot begins (an order under review is cancelled by itself then). */
  firstSlotStartEpochMs: v.nullable(EpochMsSchema),
  /**
   * When the order's personal data (contact, texts, photo, content) is forgotten, its accounting kept
   * (docs/privacy.md); null when unknown. `personalDataForgotten`: it already is.
   */
  personalDataUntilEpochMs: v.nullable(EpochMsSchema),
  personalDataForgotten: v.boolean(),
  payment: OpsPaymentSchema,
  history: v.array(OrderStateChangeSchema),
})
export type OpsOrder = v.InferOutput<typeof OpsOrderSchema>

export const OpsOrdersSchema = v.object({ orders: v.array(OpsOrderSchema) })
export type OpsOrders = v.InferOutput<typeof OpsOrdersSchema>

/** The longest reason for a cancel or a refusal (the shopper receives it; the console's field too). */
export const CANCEL_REASON_MAX_LENGTH = 500
/** The longest search of the orders (an e-mail's bound; the console's field too). */
export const ORDERS_QUERY_MAX_LENGTH = 320
/** A search of the orders answers at most this many, the newest (the console says so when it is reached). */
export const FOUND_ORDERS_MAX = 50

export const CancelRequestSchema = v.strictObject({
  reason: v.pipe(
    v.string(),
    wellFormed(),
    v.trim(),
    v.nonEmpty(issue('field_required')),
    v.maxLength(CANCEL_REASON_MAX_LENGTH),
  ),
})
export type CancelRequest = v.InferOutput<typeof CancelRequestSchema>

export const OrdersQuerySchema = v.object({
  /** A confirmation code, an e-mail, a billboard's device id, or an order guid. */
  query: v.optional(
    v.pipe(v.string(), wellFormed(), v.trim(), v.maxLength(ORDERS_QUERY_MAX_LENGTH)),
    '',
  ),
  /** A day (YYYY-MM-DD, in each billboard's time zone): orders with a slot on that day. */
  day: v.optional(v.pipe(v.string(), v.regex(/^\d{4}-\d{2}-\d{2}$/, issue('day_invalid')))),
  /** The next page: the orders placed before this one (the last guid of the page before). */
  before: v.optional(v.pipe(v.string(), v.uuid())),
})
export type OrdersQuery = v.InferOutput<typeof OrdersQuerySchema>

export const AuditQuerySchema = v.object({
  limit: v.optional(
    v.pipe(v.string(), v.regex(/^\d+$/), v.transform(Number), v.minValue(1), v.maxValue(500)),
    '100',
  ),
  /** Entries older than this id (the next page). */
  before: v.optional(v.pipe(v.string(), v.regex(/^\d+$/), v.transform(Number))),
  /** Only this order's entries. */
  orderGuid: v.optional(v.pipe(v.string(), v.maxLength(100))),
  /** Only this operator's entries (their e-mail, any case). */
  operator: v.optional(v.pipe(v.string(), wellFormed(), v.trim(), v.maxLength(320))),
  /** Only entries of this action (sign_in, approve...). */
  action: v.optional(v.pipe(v.string(), v.regex(/^[a-z_]{1,40}$/))),
})
export type AuditQuery = v.InferOutput<typeof AuditQuerySchema>

export const AuditEntrySchema = v.object({
  id: nonNegativeInt(),
  atEpochMs: EpochMsSchema,
  operatorEmail: v.nullable(v.string()),
  /** sign_in, sign_in_failed, sign_out, set_password, approve, cancel, auto_cancel, ... */
  action: v.string(),
  orderGuid: v.nullable(v.string()),
  detail: v.record(v.string(), v.unknown()),
})
export type AuditEntry = v.InferOutput<typeof AuditEntrySchema>
export const AuditAnswerSchema = v.object({ entries: v.array(AuditEntrySchema) })
export type AuditAnswer = v.InferOutput<typeof AuditAnswerSchema>

const guarded = ['sign_in_required', 'role_forbidden', 'cross_origin'] as const

// ---------- endpoints ----------

export const ops = {
  signIn: endpoint({
    name: 'opsSignIn',
    method: 'POST',
    path: '/ops/session',
    summary: 'Sign in: sets the session cookie (HttpOnly, SameSite=Strict, __Host- over HTTPS)',
    body: SignInRequestSchema,
    status: 204,
    errors: ['wrong_credentials', 'cross_origin', 'sign_in_limited', 'sign_in_busy'],
  }),
  session: endpoint({
    name: 'opsSession',
    method: 'GET',
    path: '/ops/session',
    summary: 'The operator signed in (e-mail and role)',
    access: 'reviewer',
    response: OperatorSchema,
    errors: ['sign_in_required'],
  }),
  signOut: endpoint({
    name: 'opsSignOut',
    method: 'DELETE',
    path: '/ops/session',
    summary: 'Sign out: ends the session and clears the cookie',
    status: 204,
    errors: ['cross_origin'],
  }),
  setPassword: endpoint({
    name: 'opsSetPassword',
    method: 'POST',
    path: '/ops/set-password',
    summary: "Set an operator's password with the one-time link's token (24 h, once)",
    body: SetPasswordRequestSchema,
    status: 204,
    errors: [
      'password_weak',
      'password_too_long',
      'link_invalid',
      'cross_origin',
      'too_many_requests',
      'sign_in_busy',
    ],
  }),
  review: endpoint({
    name: 'opsReviewQueue',
    method: 'GET',
    path: '/ops/review',
    summary: 'The orders under review, oldest first',
    access: 'reviewer',
    response: OpsOrdersSchema,
    errors: guarded,
  }),
  orders: endpoint({
    name: 'opsFindOrders',
    method: 'GET',
    path: '/ops/orders',
    summary:
      'Orders by confirmation code, e-mail, device id or guid (and a day), newest first; without a search the newest, a page at a time',
    access: 'reviewer',
    query: OrdersQuerySchema,
    response: OpsOrdersSchema,
    errors: guarded,
  }),
  order: endpoint({
    name: 'opsGetOrder',
    method: 'GET',
    path: '/ops/orders/{guid}',
    summary: 'One order as operators see it',
    access: 'reviewer',
    response: OpsOrderSchema,
    errors: [...guarded, 'order_not_found'],
  }),
  approve: endpoint({
    name: 'opsApproveOrder',
    method: 'POST',
    path: '/ops/orders/{guid}/approve',
    summary: 'UnderReview → Confirmed: the shout plays',
    access: 'reviewer',
    body: EmptyBodySchema,
    response: OpsOrderSchema,
    errors: [...guarded, 'order_not_found', 'not_under_review'],
  }),
  cancel: endpoint({
    name: 'opsCancelOrder',
    method: 'POST',
    path: '/ops/orders/{guid}/cancel',
    summary:
      'Cancel (refuse) an order with a reason: slots freed, payment refunded (reviewers: under review only)',
    access: 'reviewer',
    body: CancelRequestSchema,
    response: OpsOrderSchema,
    errors: [...guarded, 'order_not_found', 'not_cancellable', 'reviewers_refuse_only'],
  }),
  audit: endpoint({
    name: 'opsAuditLog',
    method: 'GET',
    path: '/ops/audit',
    summary: 'What operators did, newest first (admins); by order, operator or action',
    access: 'admin',
    query: AuditQuerySchema,
    response: AuditAnswerSchema,
    errors: guarded,
  }),
} as const
