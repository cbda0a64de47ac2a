import { messages } from '../domain/messages'
import { readPoEntries } from './po-reader'

// First-screen JavaScript: each locale's catalog is built in two parts. The first screens
// (home, the location step, event-not-found and the shell around them) load only the first; the rest
// comes when the shopper goes further (the root route waits for it) or opens what the first screens
// load lazily (the modals, the footer, the error pages): src/app/locale/i18n.ts. A message is in the
// rest only when every source file it comes from is one of these; anything else, a new file among
// it, stays in the first part (a missing message would show its id).
const LATER_SOURCES: readonly RegExp[] = [
  /^src\/app\/features\/(template|customize|shouts|checkout|review|confirmation)\//,
  /^src\/app\/features\/location\/(shout-location-page|billboard-map)\.tsx$/,
  // what the shell loads lazily (the banners when there is one to show, the footer once idle), and the
  // billboard player, a screen of its own: each loads the whole catalog with its code
  /^src\/app\/features\/shell\/(modal-host|error-page|pwa-banners|footer)\.tsx$/,
  /^src\/app\/player\//,
  /^src\/app\/ui\/(modal|price-totals|generated-content)\.tsx$/,
  // the spec's sentences in every language: only those below are on a first screen
  /^src\/app\/lib\/domain-messages\.ts$/,
  // the server's refusals by code: shown on the later steps only
  /^src\/app\/lib\/error-messages\.ts$/,
]

/** The domain's sentences a first screen shows (their msgids in src/app/lib/domain-messages.ts):
 * the location step's badges and the event-not-found page. */
export const FIRST_SCREEN_DOMAIN_MESSAGES: readonly string[] = [
  messages.soldOut,
  messages.notAvailableFor('{event}'),
  messages.eventNotFound,
]

export type CatalogPart = 'first' | 'rest'

/** The msgids of a catalog's part, read from the source catalog (its `#:` origins). */
export function catalogPartIds(sourcePo: string, part: CatalogPart): Set<string> {
  const ids = new Set<string>()
  for (const entry of readPoEntries(sourcePo)) {
    const later =
      entry.origins.length > 0 &&
      entry.origins.every((origin) => LATER_SOURCES.some((source) => source.test(origin))) &&
      !FIRST_SCREEN_DOMAIN_MESSAGES.includes(entry.id)
    if ((part === 'rest') === later) ids.add(entry.id)
  }
  return ids
}
