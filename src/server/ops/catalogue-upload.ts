import { createHash } from 'node:crypto'
import type {
  CatalogueApplied,
  CatalogueChanges,
  CataloguePreview,
} from '../../contract/ops-console.ts'
import { englishOf } from '../../contract/problems.ts'
import type { ProblemData } from '../../domain/problems.ts'
import type { AuthService, Operator } from '../auth/service.ts'
import { type CatalogueService, checkCatalogue } from '../catalogue/service.ts'
import { err, ok, type Result } from '../platform/result.ts'

// The console's catalogue upload: the checks of `npm run import` on a file (the catalogue module's),
// previewed first with what it changes, then applied (the same file) with its audit row.

export type CatalogueUploadError =
  | { code: 'catalogue_not_json'; params: { field: '$'; detail: string } }
  | { code: 'catalogue_invalid'; problems: ProblemData[] }
  /** The apply call's file is not the one previewed (its SHA-256 differs). */
  | { code: 'catalogue_not_previewed' }

/** A preview's problems: their English (api-v1's `problems`), and beside it their codes and params. */
const listed = (problems: readonly ProblemData[]) => ({
  problems: problems.map(englishOf),
  codes: problems.map((p) => p.code),
  params: problems.map((p) => p.params ?? {}),
})

const sha256 = (text: string) => createHash('sha256').update(text, 'utf8').digest('hex')

/** The file's text as JSON, or the parser's reason (reported at the root path like the others). */
function parseFile(text: string): Result<unknown, CatalogueUploadError> {
  try {
    return ok(JSON.parse(text))
  } catch (error) {
    return err({
      code: 'catalogue_not_json',
      params: { field: '$', detail: (error as Error).message },
    })
  }
}

/** How many of each kind were added and changed (the audit row's summary). */
const counts = (changes: CatalogueChanges) =>
  Object.fromEntries(
    Object.entries(changes).map(([kind, c]) => [
      kind,
      { added: c.added.length, changed: c.changed.length },
    ]),
  )

export function createCatalogueUpload(deps: { catalogue: CatalogueService; auth: AuthService }) {
  /** The checks of `npm run import` on an uploaded file; a clean one says what it changes. */
  async function previewCatalogue(text: string): Promise<CataloguePreview> {
    const hash = sha256(text)
    const parsed = parseFile(text)
    if (!parsed.ok) return { sha256: hash, ...listed([parsed.error]), changes: null }
    const check = checkCatalogue(parsed.value, await deps.catalogue.knownIds())
    if (!check.success) return { sha256: hash, ...listed(check.problems), changes: null }
    const changes = await deps.catalogue.changes(check.catalogue)
    return { sha256: hash, ...listed([]), changes }
  }

  /**
   * Applies the file previewed: the same text (its SHA-256 is the preview's), checked again and
   * imported in one transaction by catalogue/ (nothing is written on a problem).
   */
  async function applyCatalogue(
    text: string,
    previewedSha256: string,
    operator: Operator,
  ): Promise<Result<CatalogueApplied, CatalogueUploadError>> {
    const hash = sha256(text)
    if (hash !== previewedSha256) return err({ code: 'catalogue_not_previewed' })
    const parsed = parseFile(text)
    if (!parsed.ok) return parsed
    const check = checkCatalogue(parsed.value, await deps.catalogue.knownIds())
    if (!check.success) return err({ code: 'catalogue_invalid', problems: check.problems })
    const changes = await deps.catalogue.changes(check.catalogue)
    const imported = await deps.catalogue.importFile(parsed.value, (tx) =>
      deps.auth.recordAudit(tx, {
        operator,
        action: 'catalogue_import',
        detail: { sha256: hash, changes: counts(changes) },
      }),
    )
    if (!imported.success) return err({ code: 'catalogue_invalid', problems: imported.problems })
    return ok({ sha256: hash, changes })
  }

  return { previewCatalogue, applyCatalogue }
}
