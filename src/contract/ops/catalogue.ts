import * as v from 'valibot'
import { issue, ParamsSchema } from '../common'
import { endpoint } from '../endpoint'

// The console's catalogue upload (api-v1 "Operations"): a file previewed, then applied as previewed
// (src/server/ops/catalogue-upload.ts). Admins only.

// ---------- catalogue ----------

/** A catalogue file is at most this big (the body limit of the upload; templates are 100 KB each). */
export const MAX_CATALOGUE_BYTES = 2 * 1024 * 1024

export const CataloguePreviewRequestSchema = v.strictObject({
  /** The file's text, as the operator chose it. */
  text: v.pipe(v.string(), v.minLength(1, issue('field_empty'))),
})

export const Sha256Schema = v.pipe(v.string(), v.regex(/^[0-9a-f]{64}$/, issue('sha256_invalid')))

export const CatalogueApplyRequestSchema = v.strictObject({
  text: v.pipe(v.string(), v.minLength(1, issue('field_empty'))),
  /** The preview's sha256: what is applied is exactly what was previewed. */
  sha256: Sha256Schema,
})

const ChangeListSchema = v.object({
  added: v.array(v.string()),
  changed: v.array(v.string()),
  unchanged: v.array(v.string()),
})
export const CatalogueChangesSchema = v.object({
  events: ChangeListSchema,
  devices: ChangeListSchema,
  templates: ChangeListSchema,
  promos: ChangeListSchema,
})
export type CatalogueChanges = v.InferOutput<typeof CatalogueChangesSchema>
export const CATALOGUE_KINDS = ['events', 'devices', 'templates', 'promos'] as const

export const CataloguePreviewSchema = v.object({
  /** SHA-256 (hex) of the file's UTF-8 text; the apply call sends it back. */
  sha256: Sha256Schema,
  /** Every problem, by JSON path (the checks of `npm run import`), in English; empty for a clean file. */
  problems: v.array(v.string()),
  /** Beside each problem its code and the values of its sentence (`field` its JSON path). */
  codes: v.array(v.string()),
  params: v.array(ParamsSchema),
  /** What applying it would add or change; null while it has problems. */
  changes: v.nullable(CatalogueChangesSchema),
})
export type CataloguePreview = v.InferOutput<typeof CataloguePreviewSchema>

export const CatalogueAppliedSchema = v.object({
  sha256: Sha256Schema,
  changes: CatalogueChangesSchema,
})
export type CatalogueApplied = v.InferOutput<typeof CatalogueAppliedSchema>

const opsErrors = ['sign_in_required', 'role_forbidden', 'cross_origin'] as const

export const opsCatalogue = {
  cataloguePreview: endpoint({
    name: 'postOpsCataloguePreview',
    method: 'POST',
    path: '/ops/catalogue/preview',
    summary:
      'Checks a catalogue file as `npm run import` does: every problem by JSON path, or what it would add and change',
    access: 'admin',
    body: CataloguePreviewRequestSchema,
    response: CataloguePreviewSchema,
    errors: [...opsErrors, 'body_too_large'],
  }),
  catalogueApply: endpoint({
    name: 'postOpsCatalogueApply',
    method: 'POST',
    path: '/ops/catalogue/apply',
    summary: 'Imports the previewed file (its sha256 must match); nothing is written on a problem',
    access: 'admin',
    body: CatalogueApplyRequestSchema,
    response: CatalogueAppliedSchema,
    errors: [
      ...opsErrors,
      'catalogue_not_json',
      'catalogue_invalid',
      'catalogue_not_previewed',
      'body_too_large',
    ],
  }),
} as const
