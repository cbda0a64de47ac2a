import * as v from 'valibot'
import { ContentWorkerEnvSchema } from '../content/content-worker.ts'
import { S3EnvSchema } from '../content/s3-storage.ts'
import { ModerationEnvSchema } from '../moderation/image.ts'

// Configuration comes only from the environment (issue 3, "Runs as"), checked at start with the same
// tool as every other edge, so a typo in PORT stops the server with a message instead of a surprise.
const optionalText = v.optional(v.pipe(v.string(), v.trim(), v.minLength(1)))

export const EnvSchema = v.object({
  PORT: v.optional(
    v.pipe(
      v.string(),
      v.regex(/^\d{1,5}$/, 'PORT must be a number between 0 and 65535'),
      v.transform(Number),
      v.maxValue(65535, 'PORT must be a number between 0 and 65535'),
    ),
    '3000',
  ),
  DATA_DIR: v.optional(v.pipe(v.string(), v.minLength(1)), './data'),
  DATABASE_URL: optionalText,
  STRIPE_SECRET_KEY: optionalText,
  STRIPE_PUBLISHABLE_KEY: optionalText,
  // Where the Stripe SDK sends its calls; default Stripe's own API. For a Stripe-compatible server such
  // as stripe-mock, or the stand-in the tests start on loopback.
  STRIPE_API_URL: v.optional(v.pipe(v.string(), v.url('STRIPE_API_URL must be a URL'))),
  APP_ENV: v.optional(
    v.picklist(['local', 'dev', 'prod'], 'APP_ENV must be one of local, dev, prod'),
    'local',
  ),
  PUBLIC_BASE_URL: v.optional(v.pipe(v.string(), v.url('PUBLIC_BASE_URL must be a URL'))),
  // Origin of the map style and its tiles, allowed by the Content-Security-Policy.
  MAP_STYLE_URL: v.optional(v.pipe(v.string(), v.url('MAP_STYLE_URL must be a URL'))),
  LOG_LEVEL: v.optional(v.picklist(['debug', 'info', 'warn', 'error', 'silent']), 'info'),
  // Promo lookups allowed per client address per minute (issue 3: code guessing).
  PROMO_LOOKUPS_PER_MINUTE: v.optional(
    v.pipe(
      v.string(),
      v.regex(/^\d+$/, 'PROMO_LOOKUPS_PER_MINUTE must be a number'),
      v.transform(Number),
    ),
    '30',
  ),
  // Checked here too so that every bad setting is listed at once, by name, before anything starts
  // (the content service reads them itself: content/s3-storage.ts, moderation/image.ts).
  ...S3EnvSchema.entries,
  ...ModerationEnvSchema.entries,
  ...ContentWorkerEnvSchema.entries,
})

export type Env = v.InferOutput<typeof EnvSchema>
export type AppEnv = Env['APP_ENV']

export function parseEnv(source: Record<string, string | undefined>): Env {
  // Empty strings count as unset: `FOO= npm start` should not be an error.
  const cleaned: Record<string, string> = {}
  for (const key of Object.keys(EnvSchema.entries)) {
    const value = source[key]
    if (value !== undefined && value !== '') cleaned[key] = value
  }
  const result = v.safeParse(EnvSchema, cleaned)
  if (!result.success) {
    const problems = result.issues.map((issue) => {
      const path = issue.path?.map((p) => String(p.key)).join('.') ?? ''
      return `${path}: ${issue.message}`
    })
    throw new Error(`Invalid environment:\n${problems.join('\n')}`)
  }
  return result.output
}

// spec §12 order payload: orderType is Standard in production, Test otherwise.
export function orderTypeFor(appEnv: AppEnv): 'Standard' | 'Test' {
  return appEnv === 'prod' ? 'Standard' : 'Test'
}
