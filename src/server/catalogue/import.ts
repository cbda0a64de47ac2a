import type { CatalogueChanges } from '../../contract/index.ts'
import { englishOf } from '../../contract/problems.ts'
import type { ProblemData } from '../../domain/problems.ts'
import type { Database, Queryable } from '../platform/db/client.ts'
import { type Catalogue, checkCatalogue } from './format.ts'
import {
  countEvents,
  knownIds,
  lockDemoImport,
  replacePromo,
  storedCatalogueRows,
  upsertDevice,
  upsertEvent,
  upsertTemplate,
} from './repo.ts'

// Importing a checked catalogue (format.ts), by `npm run import`, the console's catalogue page and a
// new shop's demo catalogue: upserts by id in one transaction; and what a file would change.

/** A value as canonical JSON: keys sorted, undefined as null, so equal rows compare equal. */
function canonical(value: unknown): string {
  if (value === undefined || value === null) return 'null'
  if (Array.isArray(value)) return `[${value.map(canonical).join(',')}]`
  if (typeof value === 'object') {
    const entries = Object.entries(value as Record<string, unknown>).sort(([a], [b]) =>
      a < b ? -1 : a > b ? 1 : 0,
    )
    return `{${entries.map(([k, v]) => `${JSON.stringify(k)}:${canonical(v)}`).join(',')}}`
  }
  return JSON.stringify(value)
}

const byText = (a: string, b: string) => (a < b ? -1 : a > b ? 1 : 0)

/** An event's lists are replaced whole by an import and kept without order: compared sorted. */
function eventForComparison(e: Catalogue['events'][number]) {
  return {
    ...e,
    devices: [...e.devices].sort((a, b) => byText(a.deviceId, b.deviceId)),
    templates: [...e.templates].sort(byText),
  }
}

function promoForComparison(p: Catalogue['promos'][number]) {
  return {
    promoCode: p.promoCode,
    eventSlug: p.eventSlug,
    centsOffTotal: p.centsOffTotal ?? null,
    percentOffTotal: p.percentOffTotal ?? null,
    oncePerCustomer: p.oncePerCustomer,
  }
}

/**
 * For each row of a checked catalogue: new (no row with its id), changed (a row differs in any field
 * the import writes), or unchanged (importing it changes nothing, catalogue-format: "running it twice
 * changes nothing").
 */
export async function catalogueChanges(
  database: Database,
  catalogue: Catalogue,
): Promise<CatalogueChanges> {
  const stored = await storedCatalogueRows(database, {
    devices: catalogue.devices.map((d) => d.deviceId),
    templates: catalogue.templates.map((t) => t.id),
    events: catalogue.events.map((e) => e.slug),
    promos: catalogue.promos.map((p) => p.promoCode),
  })
  const compare = <T>(
    rows: readonly T[],
    storedRows: readonly T[],
    idOf: (row: T) => string,
    shape: (row: T) => unknown = (row) => row,
  ) => {
    const key = (row: T) => idOf(row).toLowerCase()
    const before = new Map(storedRows.map((row) => [key(row), canonical(shape(row))]))
    const result = { added: [] as string[], changed: [] as string[], unchanged: [] as string[] }
    for (const row of rows) {
      const old = before.get(key(row))
      if (old === undefined) result.added.push(idOf(row))
      else if (old === canonical(shape(row))) result.unchanged.push(idOf(row))
      else result.changed.push(idOf(row))
    }
    return result
  }
  return {
    events: compare(catalogue.events, stored.events, (e) => e.slug, eventForComparison),
    devices: compare(catalogue.devices, stored.devices, (d) => d.deviceId),
    templates: compare(catalogue.templates, stored.templates, (t) => t.id),
    promos: compare(catalogue.promos, stored.promos, (p) => p.promoCode, promoForComparison),
  }
}

/** The preview of the problems of `npm run import`, or, for a clean file, its changes. */
export async function previewCatalogue(
  database: Database,
  input: unknown,
): Promise<
  { success: true; changes: CatalogueChanges } | { success: false; problems: ProblemData[] }
> {
  const check = checkCatalogue(input, await knownIds(database))
  if (!check.success) return check
  return { success: true, changes: await catalogueChanges(database, check.catalogue) }
}

export type ImportCounts = { devices: number; templates: number; events: number; promos: number }

/**
 * Upsert by id in one transaction (catalogue-format: running it twice changes nothing). An event's
 * device and template lists are replaced by the file's, so removing a billboard from an event works.
 */
export async function importCatalogue(
  database: Database,
  input: unknown,
  /** Runs in the import's transaction (the console's audit row: both or neither). */
  alsoIn?: (tx: Queryable) => Promise<void>,
): Promise<{ success: true; counts: ImportCounts } | { success: false; problems: ProblemData[] }> {
  const check = checkCatalogue(input, await knownIds(database))
  if (!check.success) return check
  const c = check.catalogue
  await database.transaction(async (tx) => {
    for (const d of c.devices) await upsertDevice(tx, d)
    for (const t of c.templates) await upsertTemplate(tx, t)
    for (const e of c.events) await upsertEvent(tx, e)
    for (const p of c.promos) await replacePromo(tx, p)
    await alsoIn?.(tx)
  })
  return {
    success: true,
    counts: {
      devices: c.devices.length,
      templates: c.templates.length,
      events: c.events.length,
      promos: c.promos.length,
    },
  }
}

/**
 * A new shop starts with the demo catalogue; a shop with events keeps its own.
 * Instances starting at once on one PostgreSQL import it once: the check for an empty shop
 * and the import run in one transaction under an advisory lock (PGlite has them too).
 */
export async function seedEmptyShop(
  database: Database,
  catalogue: unknown,
): Promise<ImportCounts | null> {
  return database.transaction(async (tx) => {
    await lockDemoImport(tx)
    if ((await countEvents(tx)) > 0) return null
    const check = checkCatalogue(catalogue, await knownIds(tx))
    if (!check.success)
      throw new Error(`demo catalogue: ${check.problems.map(englishOf).join('; ')}`)
    const c = check.catalogue
    for (const d of c.devices) await upsertDevice(tx, d)
    for (const t of c.templates) await upsertTemplate(tx, t)
    for (const e of c.events) await upsertEvent(tx, e)
    for (const p of c.promos) await replacePromo(tx, p)
    return {
      devices: c.devices.length,
      templates: c.templates.length,
      events: c.events.length,
      promos: c.promos.length,
    }
  })
}
