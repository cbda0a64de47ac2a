import { useState } from 'react'

/** A page's search: each key's value, undefined when the address has none (or an empty one). */
export type AddressSearch<K extends string> = Record<K, string | undefined>

function readAddress<K extends string>(keys: readonly K[]): AddressSearch<K> {
  const query = new URLSearchParams(window.location.search)
  return Object.fromEntries(
    keys.map((key) => [key, query.get(key) || undefined]),
  ) as AddressSearch<K>
}

/**
 * What a console page is showing, kept in its address (`?query=…&day=…`): a reload or a
 * shared link opens the same search, billboard, day or mail. Read once when the page mounts; each
 * change replaces the address (replaceState: no history entry per keystroke or click), keeping only
 * the keys with a value, in the order of `keys`.
 */
export function useAddressSearch<K extends string>(
  keys: readonly K[],
): [AddressSearch<K>, (next: Partial<AddressSearch<K>>) => void] {
  const [search, setSearch] = useState(() => readAddress(keys))
  const go = (next: Partial<AddressSearch<K>>) => {
    const merged: AddressSearch<K> = { ...search, ...next }
    setSearch(merged)
    const query = new URLSearchParams()
    for (const key of keys) {
      const value = merged[key]
      if (value) query.set(key, value)
    }
    const text = query.toString()
    const tail = text ? `?${text}` : ''
    window.history.replaceState(window.history.state, '', `${window.location.pathname}${tail}`)
  }
  return [search, go]
}
