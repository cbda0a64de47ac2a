import type { FeatureFlags, Readiness } from '../../contract/index.ts'
import { err, ok, type Result } from '../platform/result.ts'

// spec §3 and §7 call 6: one set of flags per environment (local, dev, prod); the app picks the set
// of the environment it runs in. show-footer is the spec's; the others switch parts of the shop.
export const FEATURE_FLAGS: FeatureFlags = {
  local: { 'show-footer': true, 'video-shouts': true, 'street-view': true, 'promo-codes': true },
  dev: { 'show-footer': true, 'video-shouts': true, 'street-view': true, 'promo-codes': true },
  prod: { 'show-footer': false, 'video-shouts': true, 'street-view': false, 'promo-codes': true },
}

/** The shop is the only product with flags so far (spec §7 call 6: /feature-flags/shouts). */
export const FLAGGED_PRODUCT = 'shouts'

export type MetaError = { code: 'feature_flags_not_found'; product: string }

export function featureFlagsOf(product: string): Result<FeatureFlags, MetaError> {
  return product === FLAGGED_PRODUCT
    ? ok(FEATURE_FLAGS)
    : err({ code: 'feature_flags_not_found', product })
}

export type ReadinessProblem =
  | { code: 'database_unreachable' }
  | { code: 'migrations_pending'; pending: string[] }
  | { code: 'storage_unwritable' }
  | { code: 'shutting_down' }

export type ReadinessProbes = {
  /** Answers when the database answers. */
  database(): Promise<void>
  /** The migration files not applied yet. */
  pendingMigrations(): Promise<string[]>
  /** Writes and removes a small file in content storage (the folder or the bucket). */
  writeStorage(): Promise<void>
}

/** How long a probe may take before it counts as failed. */
const PROBE_TIMEOUT_MS = 3_000
/** A storage write is costly on a bucket: a success is trusted this long (a failure is checked again). */
const STORAGE_VERDICT_MS = 10_000

const within = <T>(promise: Promise<T>, ms: number): Promise<T> =>
  new Promise<T>((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`no answer within ${ms} ms`)), ms)
    timer.unref()
    promise.then(
      (value) => {
        clearTimeout(timer)
        resolve(value)
      },
      (error: unknown) => {
        clearTimeout(timer)
        reject(error)
      },
    )
  })

/**
 * The database answers, every migration is applied, content storage takes a
 * write, and the server is not shutting down. Every problem is reported, not only the first.
 */
export function createReadiness(probes: ReadinessProbes, now: () => number = Date.now) {
  let shuttingDown = false
  let storageVerdict: { ok: boolean; at: number } | null = null
  const storageOk = async () => {
    if (storageVerdict && now() - storageVerdict.at < STORAGE_VERDICT_MS) return storageVerdict.ok
    const ok = await within(probes.writeStorage(), PROBE_TIMEOUT_MS).then(
      () => true,
      () => false,
    )
    storageVerdict = ok ? { ok, at: now() } : null
    return ok
  }
  return {
    /** The shutdown began: from now on, not ready (the load balancer stops sending traffic). */
    shutDown() {
      shuttingDown = true
    },
    async check(): Promise<
      { ok: true; value: Readiness } | { ok: false; problems: ReadinessProblem[] }
    > {
      const problems: ReadinessProblem[] = []
      if (shuttingDown) problems.push({ code: 'shutting_down' })
      const database = await within(probes.database(), PROBE_TIMEOUT_MS).then(
        () => true,
        () => false,
      )
      if (!database) problems.push({ code: 'database_unreachable' })
      else {
        const pending = await within(probes.pendingMigrations(), PROBE_TIMEOUT_MS).catch(() => null)
        if (pending === null) problems.push({ code: 'database_unreachable' })
        else if (pending.length > 0) problems.push({ code: 'migrations_pending', pending })
      }
      if (!(await storageOk())) problems.push({ code: 'storage_unwritable' })
      if (problems.length > 0) return { ok: false, problems }
      return {
        ok: true,
        value: { status: 'ready', checks: { database: 'ok', migrations: 'ok', storage: 'ok' } },
      }
    },
  }
}

export type ReadinessCheck = ReturnType<typeof createReadiness>
