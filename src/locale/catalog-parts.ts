import { readPoEntries } from './po-reader'

// First-screen JavaScript: each locale's catalog is built in two parts. The first screens
// (home, the location step, event-not-found and the shell around them) load only the first; the rest
// comes when the shopper goes further (the root route waits for it) or opens what the first screens
// load lazily (the modals, the footer, the error pages): src/app/locale/i18n.ts. A message is in the
// rest only when every source file it comes from is one of these; anything else, a new file among
// it, stays in the first part (a missing message would show its id).
const LATER_SOURCES: readonly RegExp[] = [
  /^src\/app\/features\/(template|customize|shouts|checkout|review|confirmation)\//,
  /^src\/app\/features\/location\/shout-location-page\.tsx$/,
  // what the shell loads lazily (the banners when there is one to show, the footer and the menu's
  // links once idle), and the billboard player, a screen of its own: each loads the whole catalog
  // with its code
  /^src\/app\/features\/shell\/(modal-host|error-page|pwa-banners|footer|menu-links)\.tsx$/,
  /^src\/app\/player\//,
  // the advertisers' pages: no first screen among them
  /^src\/app\/features\/advertisers\//,
  /^src\/app\/advertisers\//,
  /^src\/app\/ui\/(modal|price-totals|generated-content|local-card)\.tsx$/,
  /^src\/app\/ui\/marketing-pages\.ts$/,
  /^src\/app\/lib\/(play-alerts-card|keepsake-share|payment-authentication|stripe-card-form|billboard-map)\.tsx$/,
  // the interactive map's words (its gesture hints and controls): the map loads on a tap
  /^src\/app\/lib\/map-locale\.ts$/,
  // the problems (their id is their code) and their words: shown on the later steps only, but for
  // those below
  /^src\/contract\/problems(-[a-z]+)?\.ts$/,
]

/** The problems a first screen shows, by code: the location step's badges and the event-not-found
 * page. */
export const FIRST_SCREEN_PROBLEMS: readonly string[] = [
  'sold_out',
  'not_available_for_event',
  'event_not_found',
]

export type CatalogPart = 'first' | 'rest'

/** A message of a part: its msgid, and whether that is its id (else its id is made from it). */
export type PartEntry = { msgid: string; explicitId: boolean }

/** The messages of a catalog's part, read from the source catalog (its `#:` origins). */
export function catalogPartEntries(sourcePo: string, part: CatalogPart): PartEntry[] {
  const entries: PartEntry[] = []
  for (const entry of readPoEntries(sourcePo)) {
    const later =
      entry.origins.length > 0 &&
      entry.origins.every((origin) => LATER_SOURCES.some((source) => source.test(origin))) &&
      !FIRST_SCREEN_PROBLEMS.includes(entry.id)
    if ((part === 'rest') === later) entries.push({ msgid: entry.id, explicitId: entry.explicitId })
  }
  return entries
}
