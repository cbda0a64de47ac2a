import type { Context, MiddlewareHandler } from 'hono'
import type { Database } from './db/client.ts'
import { type Sql, sql } from './db/sql.ts'
import { clientLimitKey } from './http/client.ts'
import { errorResponse, fail, type Problem, problem } from './http/errors.ts'
import { type RefusingMiddleware, refusing } from './http/refusing.ts'
import type { Job } from './scheduler.ts'

// The shared rate limiter (8): fixed windows per
// bucket and client, counted in one PostgreSQL table (migrations/0005_rate_limits.sql) so that every
// instance of the server sees the same counters, and the same code runs on PGlite. One statement takes
// a hit: `insert ... on conflict do update` locks the row, so concurrent hits on PostgreSQL are counted
// one by one (never lost, never two windows), and it answers the count and the window's end at once.
// Windows that ended are reset by their next hit and deleted by the `rate-limit-sweep` job.

export type LimitRule = {
  /** Names the counter: 'promo', 'uploads', ... A client has one counter per bucket. */
  bucket: string
  /** Hits allowed per window. */
  limit: number
  windowMs: number
}

export type Take = { allowed: boolean; hits: number; retryAfterS: number }

export type RateLimiter = {
  /**
   * Counts `cost` hits (default one; an upload's quota counts its bytes; 0 reads the count) of the
   * rule for the client.
   */
  take(rule: LimitRule, client: string, cost?: number): Promise<Take>
  /** The verdict of a hit another statement counted with hitStatement (no row: counted as 1). */
  recorded(rule: LimitRule, row: HitRow | undefined, nowMs: number): Take
  /**
   * Takes back one hit of the current window (a successful sign-in does not count against
   * the failures' limit). The hit was taken first, so parallel attempts never slip past the limit.
   */
  giveBack(rule: LimitRule, client: string): Promise<void>
  /** Deletes the rows of windows that ended; answers how many. */
  sweep(): Promise<number>
}

/** Deletes the counters of windows that ended: once a minute, on one instance. */
export function rateLimitSweepJob(limiter: RateLimiter): Job {
  return {
    name: 'rate-limit-sweep',
    everyMs: 60_000,
    oneInstance: true,
    run: () => limiter.sweep(),
  }
}

export function createRateLimiter(deps: { database: Database; now: () => number }): RateLimiter {
  const { database: db, now } = deps
  const sweep = async () => {
    const rows = await db.query(sql<{ key: string }>`
      delete from rate_limits where window_ends_ms <= ${now()} returning key`)
    return rows.length
  }
  return {
    sweep,
    async giveBack(rule, client) {
      await db.query(sql`
        update rate_limits set hits = greatest(hits - 1, 0)
        where key = ${`${rule.bucket}:${client}`} and window_ends_ms > ${now()}`)
    },
    async take(rule, client, cost = 1) {
      const nowMs = now()
      const [row] = await db.query(hitStatement(rule, client, nowMs, cost))
      return recorded(rule, row, nowMs)
    },
    recorded,
  }
}

export type HitRow = { hits: number; windowEndsMs: number }

/**
 * The one statement that counts a hit (an upsert that locks the client's row): taken alone by
 * `take`, or inside the statement of the write it counts (a CTE of the order's insert), so that the
 * write and its count are one commit. Answers the window's hits and end.
 */
export function hitStatement(
  rule: LimitRule,
  client: string,
  nowMs: number,
  cost = 1,
): Sql<HitRow> {
  const key = `${rule.bucket}:${client}`
  return sql<HitRow>`
    insert into rate_limits as r (key, hits, window_ends_ms)
    values (${key}, ${cost}, ${nowMs + rule.windowMs})
    on conflict (key) do update set
      hits = case when r.window_ends_ms <= ${nowMs} then ${cost} else r.hits + ${cost} end,
      window_ends_ms = case when r.window_ends_ms <= ${nowMs}
        then excluded.window_ends_ms else r.window_ends_ms end
    returning hits, window_ends_ms as "windowEndsMs"`
}

/** What a counted hit means for the request. */
function recorded(rule: LimitRule, row: HitRow | undefined, nowMs: number): Take {
  const hits = Number(row?.hits ?? 1)
  const windowEnds = Number(row?.windowEndsMs ?? nowMs + rule.windowMs)
  return {
    allowed: hits <= rule.limit,
    hits,
    retryAfterS: Math.max(1, Math.ceil((windowEnds - nowMs) / 1000)),
  }
}

/** The problem of a 429 from a rule (a bucket may name its own, e.g. the spec's promo message). */
export const tooManyRequests = (retryAfterS: number): Problem =>
  problem('too_many_requests', { seconds: retryAfterS })

/**
 * Counts a hit of the rule for the request's client (platform/http/client.ts: an IPv6 client by its
 * /64); past the limit it
 * answers 429 with Retry-After and an `errors` message instead of calling the handler.
 */
export function rateLimited(
  limiter: RateLimiter,
  rule: LimitRule,
  trustProxy: number,
  problemOf: (retryAfterS: number) => Problem = tooManyRequests,
  keyOf: (c: Context) => string = (c) => clientLimitKey(c, trustProxy),
): RefusingMiddleware {
  return refusing([problemOf(1).code], async (c, next) => {
    const take = await limiter.take(rule, keyOf(c))
    if (!take.allowed) {
      c.header('Retry-After', String(take.retryAfterS))
      return errorResponse(c, { problems: [problemOf(take.retryAfterS)] })
    }
    await next()
  })
}

/**
 * A write's hit that rides with the write's own statement, so that the write and its count are one
 * commit (ClientLimits.writesCountedWith).
 */
export type PendingHit = {
  /** Hits allowed per window: the write is made only within it. */
  limit: number
  /** The count to put in the write's statement (a CTE), as of `nowMs`. */
  statement(nowMs: number): Sql<HitRow>
  /** The write's statement committed: what it counted. */
  counted(row: HitRow | undefined, nowMs: number): Take
}

/** The limits of one server, from its settings: what the routes put in front of their handlers. */
export type ClientLimits = {
  /** Who the request counts as (an IPv6 client by its /64): for limits counted inside a service. */
  clientKey(c: Context): string
  /** Middleware counting a write of the bucket given (one counter per bucket and client). */
  writes(bucket: string): MiddlewareHandler
  /**
   * The same count, taken by the write's own statement when the handler writes (`pendingHit(c)`
   * hands it over), else alone once the handler answered: a request that wrote nothing (a refusal, a
   * broken unique key, bad input) still counts, and past the limit its answer becomes the 429.
   */
  writesCountedWith(bucket: string): MiddlewareHandler
  /** The hit writesCountedWith holds for this request, for the handler's statement. */
  pendingHit(c: Context): PendingHit | null
  /** Middleware counting a promo code check (spec §5: codes cannot be guessed by trying many). */
  promoChecks: MiddlewareHandler
  /** Counts a promo code check made inside a handler (an order naming a code); 429 when over. */
  takePromoCheck(c: Context): Promise<void>
  /**
   * Middleware counting a hit of the rule for what the request names rather than its address (a
   * billboard, whichever address it posts from).
   */
  byKey(rule: LimitRule, keyOf: (c: Context) => string): MiddlewareHandler
}

export const PROMO_TOO_MANY = problem('promo_too_many_lookups')

export function clientLimits(
  limiter: RateLimiter,
  settings: { trustProxy: number; writesPerMinute: number; promoChecksPerMinute: number },
): ClientLimits {
  const promoRule: LimitRule = {
    bucket: 'promo',
    limit: settings.promoChecksPerMinute,
    windowMs: 60_000,
  }
  const writeRule = (bucket: string): LimitRule => ({
    bucket,
    limit: settings.writesPerMinute,
    windowMs: 60_000,
  })
  const pending = new WeakMap<Context, PendingHit>()
  return {
    clientKey: (c) => clientLimitKey(c, settings.trustProxy),
    writes: (bucket) => rateLimited(limiter, writeRule(bucket), settings.trustProxy),
    writesCountedWith: (bucket) =>
      refusing(['too_many_requests'], async (c, next) => {
        const rule = writeRule(bucket)
        const client = clientLimitKey(c, settings.trustProxy)
        let take: Take | null = null
        pending.set(c, {
          limit: rule.limit,
          statement: (nowMs) => hitStatement(rule, client, nowMs),
          counted: (row, nowMs) => {
            take = limiter.recorded(rule, row, nowMs)
            return take
          },
        })
        await next()
        const verdict: Take = take ?? (await limiter.take(rule, client))
        if (!verdict.allowed) {
          const refused = errorResponse(c, { problems: [tooManyRequests(verdict.retryAfterS)] })
          refused.headers.set('Retry-After', String(verdict.retryAfterS))
          c.res = refused
        }
      }),
    pendingHit: (c) => pending.get(c) ?? null,
    promoChecks: rateLimited(limiter, promoRule, settings.trustProxy, () => PROMO_TOO_MANY),
    byKey: (rule, keyOf) => rateLimited(limiter, rule, settings.trustProxy, tooManyRequests, keyOf),
    async takePromoCheck(c) {
      const take = await limiter.take(promoRule, clientLimitKey(c, settings.trustProxy))
      if (!take.allowed) {
        c.header('Retry-After', String(take.retryAfterS))
        fail(PROMO_TOO_MANY)
      }
    },
  }
}
