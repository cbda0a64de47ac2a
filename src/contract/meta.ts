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

export const meta = {
  health: endpoint({
    name: 'getHealth',
    method: 'GET',
    path: '/health',
    summary: 'The server answers',
    response: HealthSchema,
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
    errors: { 404: 'No feature flags for this product' },
  }),
} as const
