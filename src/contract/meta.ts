import * as v from 'valibot'
import { endpoint } from './endpoint'

// The server about itself: health, the OpenAPI document, feature flags (spec §7 call 6).

const FlagSetSchema = v.record(v.string(), v.boolean())
export const FeatureFlagsSchema = v.object({
  local: FlagSetSchema,
  dev: FlagSetSchema,
  prod: FlagSetSchema,
})
export type FeatureFlags = v.InferOutput<typeof FeatureFlagsSchema>

export const HealthSchema = v.object({ status: v.literal('ok') })

/** What readiness looked at, each answering ok (a 503 names what is not). */
export const ReadinessSchema = v.object({
  status: v.literal('ready'),
  checks: v.object({
    database: v.literal('ok'),
    migrations: v.literal('ok'),
    storage: v.literal('ok'),
  }),
})
export type Readiness = v.InferOutput<typeof ReadinessSchema>

export const meta = {
  health: endpoint({
    name: 'getHealth',
    method: 'GET',
    path: '/health',
    summary: 'The server answers',
    response: HealthSchema,
  }),
  // For a load balancer or an orchestrator. Liveness: the process answers (restart it when
  // not). Readiness: it can serve (send it traffic only then).
  livez: endpoint({
    name: 'getLiveness',
    method: 'GET',
    path: '/livez',
    summary: 'The process answers (liveness)',
    response: HealthSchema,
  }),
  readyz: endpoint({
    name: 'getReadiness',
    method: 'GET',
    path: '/readyz',
    summary:
      'The server can serve (readiness): the database answers, every migration is applied, content storage takes a write',
    response: ReadinessSchema,
    errors: ['database_unreachable', 'migrations_pending', 'storage_unwritable', 'shutting_down'],
  }),
  metrics: endpoint({
    name: 'getMetrics',
    method: 'GET',
    path: '/metrics',
    summary:
      'Prometheus metrics: requests and latency by route, orders by state, content jobs, SSE clients, payment errors',
    headers: [
      {
        name: 'Authorization',
        required: true,
        description: 'Bearer and the METRICS_TOKEN setting',
      },
    ],
    file: ['text/plain'],
    errors: ['metrics_token_required', 'metrics_off'],
  }),
  openapi: endpoint({
    name: 'getOpenApi',
    method: 'GET',
    path: '/openapi.json',
    summary: 'This document',
    response: v.record(v.string(), v.unknown()),
  }),
  featureFlags: endpoint({
    name: 'getFeatureFlags',
    method: 'GET',
    path: '/feature-flags/{product}',
    summary: 'Feature flags per environment (spec §7 call 6); the product is shouts',
    response: FeatureFlagsSchema,
    errors: ['feature_flags_not_found'],
  }),
} as const
