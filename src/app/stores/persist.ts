import { del, get, set } from 'idb-keyval'
import * as v from 'valibot'
import { subscribe } from 'valtio'
import { envelope, openEnvelope } from '../../domain/storage'

// The one persistence wrapper (conventions, habit 3): every saved value is an envelope
// {version, savedAt, ttlMs, data} (the rule: src/domain/storage.ts), its data validated with valibot
// on read; an expired, other-version or malformed envelope is dropped, never shown (spec §9 local
// storage lifetimes). A schema is loaded only when there is something saved to check: a first visit
// (a QR code scanned) does not download the code that validates a saved order.

export const STORAGE_PREFIX = 'shouts:'

export type PersistOptions<TData> = {
  /** idb-keyval key, without the prefix */
  key: string
  version: number
  ttlMs: number
  /** the saved data's schema, loaded when an entry is read (stores/saved-state.ts) */
  schema: () => Promise<v.GenericSchema<unknown, TData>>
  /** the part of the store to save; null removes the entry */
  pick: () => TData | null
  /** writes restored data back into the store */
  apply: (data: TData) => void
}

export async function readEnvelope<TData>(
  key: string,
  schema: () => Promise<v.GenericSchema<unknown, TData>>,
  version: number,
  nowMs = Date.now(),
): Promise<TData | undefined> {
  const fullKey = STORAGE_PREFIX + key
  let raw: unknown
  try {
    raw = await get(fullKey)
  } catch {
    return undefined
  }
  if (raw === undefined) return undefined
  const saved = openEnvelope(raw, version, nowMs)
  const data = saved ? v.safeParse(await schema(), saved.data) : null
  if (!data?.success) {
    await del(fullKey).catch(() => undefined)
    return undefined
  }
  return data.output
}

export async function writeEnvelope<TData>(
  key: string,
  data: TData,
  version: number,
  ttlMs: number,
): Promise<void> {
  // store data is JSON-shaped; the round trip also turns valtio proxies into plain objects,
  // which IndexedDB's structured clone refuses
  const plain = JSON.parse(JSON.stringify(data)) as TData
  await set(STORAGE_PREFIX + key, envelope(plain, ttlMs, Date.now(), version)).catch(
    () => undefined,
  )
}

export async function removeEnvelope(key: string): Promise<void> {
  await del(STORAGE_PREFIX + key).catch(() => undefined)
}

// Saves under way: a reload into a new version waits for them (savesSettled), so nothing typed is lost
const saving = new Set<Promise<void>>()

/** Resolves once every save started so far has been written. */
export async function savesSettled(): Promise<void> {
  await Promise.allSettled([...saving])
}

type Persisted = { restore: () => Promise<void>; flush: () => Promise<void> }
const registry: Persisted[] = []
// Several slices can live in one store (order and active device): until every slice is restored,
// a change made by one slice's restore must not save (and so erase) another slice still being read.
let restored = false

type Fields = Record<string, unknown>

/**
 * Saves a slice of a valtio store whenever the store changes, and restores it on start.
 * Each slice has its own key and lifetime.
 *
 * A lost tap: the saved state is read while the first screen is already live (a server
 * render is hydrated meanwhile), and reading it can take a while (IndexedDB, the schema's chunk on a
 * weak network). Whatever the shopper (or the flow) sets in the store before it arrives is newer
 * than what was saved: the restore never overwrites it. Field by field: a field of the store given
 * a new value since the restore began (valtio: a new reference; a choice, a cleared list) keeps it,
 * the others take the saved one.
 */
export function persist<TData>(store: object, options: PersistOptions<TData>): void {
  let restoring = false
  let lastJson = ''
  // changed before every slice was restored: saved once they are (restoreAll)
  let pending = false
  const save = async () => {
    if (restoring) return
    if (!restored) {
      pending = true
      return
    }
    const data = options.pick()
    const json = JSON.stringify(data)
    if (json === lastJson) return
    lastJson = json
    if (data === null) await removeEnvelope(options.key)
    else await writeEnvelope(options.key, data, options.version, options.ttlMs)
  }
  const restore = async () => {
    const fields = store as Fields
    const atStart = { ...fields }
    const data = await readEnvelope(options.key, options.schema, options.version)
    if (data === undefined) return
    const current = { ...fields }
    const newer = Object.keys(atStart).filter((key) => current[key] !== atStart[key])
    restoring = true
    try {
      options.apply(data)
      for (const key of newer) fields[key] = current[key]
      // what the envelope holds; a newer field kept makes it differ, so the first save writes it
      lastJson = newer.length > 0 ? '' : JSON.stringify(options.pick())
    } finally {
      // valtio notifies asynchronously: re-enable saving after its batch
      queueMicrotask(() => {
        restoring = false
      })
    }
  }
  subscribe(store, () => {
    const saved = save()
    saving.add(saved)
    const done = () => saving.delete(saved)
    saved.then(done, done)
  })
  registry.push({ restore, flush: async () => (pending ? save() : undefined) })
}

/** spec §7 "Startup: order, templates and devices state are restored" — before the flow renders. */
export async function restoreAll(): Promise<void> {
  await Promise.all(registry.map((entry) => entry.restore()))
  // valtio notifies after a microtask: the restores' own notifications pass before saving resumes
  await new Promise<void>((resolve) => setTimeout(resolve, 0))
  restored = true
  // What the shopper chose while the saved state was read was not saved yet
  await Promise.all(registry.map((entry) => entry.flush()))
}
