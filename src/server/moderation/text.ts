// Text moderation of a shout's words (spec §5: "Inappropriate content (profanity, nudity) is detected
// automatically and flagged"; profanity and slurs in English, French and German, robust to
// leet-speak, stretched letters and look-alike characters, on buyer, recipient and message).
import {
  DataSet,
  englishDataset,
  englishRecommendedBlacklistMatcherTransformers,
  englishRecommendedWhitelistMatcherTransformers,
  parseRawPattern,
  RegExpMatcher,
} from 'obscenity'
import { GERMAN_CLEAN_WORDS, GERMAN_WORDS } from './words-de.ts'
import { FRENCH_CLEAN_WORDS, FRENCH_WORDS, type WordEntry } from './words-fr.ts'

export type Language = 'en' | 'fr' | 'de'

export type TextFields = {
  buyerName?: string | null
  recipientName?: string | null
  multilineMessage?: string | null
}

export type TextModerationResult = {
  flagged: boolean
  /** One line per finding, e.g. 'multilineMessage: "fuck" (en)'. For reviewers and logs. */
  reasons: string[]
}

const FIELDS = ['buyerName', 'recipientName', 'multilineMessage'] as const

/** Clean English words the English list would otherwise catch (Scunthorpe problem). */
const ENGLISH_CLEAN_WORDS = ['shiitake', 'penistone']

type Metadata = { originalWord: string }

function datasetOf(words: WordEntry[]): DataSet<Metadata> {
  const dataset = new DataSet<Metadata>()
  for (const entry of words) {
    dataset.addPhrase((phrase) => {
      phrase.setMetadata({ originalWord: entry.word })
      for (const raw of entry.patterns) phrase.addPattern(parseRawPattern(raw))
      return phrase
    })
  }
  return dataset
}

type LanguageMatcher = {
  language: Language
  matcher: RegExpMatcher
  wordOf: (termId: number) => string
}

let matchers: LanguageMatcher[] | null = null

/** Built once, on first use: three matchers sharing obscenity's English transformers and one whitelist. */
function languageMatchers(): LanguageMatcher[] {
  if (matchers) return matchers
  const whitelist = [...ENGLISH_CLEAN_WORDS, ...FRENCH_CLEAN_WORDS, ...GERMAN_CLEAN_WORDS]
  const build = <T extends Metadata>(language: Language, dataset: DataSet<T>): LanguageMatcher => {
    const built = dataset.build()
    const matcher = new RegExpMatcher({
      blacklistedTerms: built.blacklistedTerms,
      whitelistedTerms: [...(built.whitelistedTerms ?? []), ...whitelist],
      blacklistMatcherTransformers: englishRecommendedBlacklistMatcherTransformers,
      whitelistMatcherTransformers: englishRecommendedWhitelistMatcherTransformers,
    })
    const wordOf = (termId: number) =>
      dataset.getPayloadWithPhraseMetadata({ termId, startIndex: 0, endIndex: 0, matchLength: 0 })
        .phraseMetadata?.originalWord ?? 'unknown'
    return { language, matcher, wordOf }
  }
  matchers = [
    build('en', englishDataset),
    build('fr', datasetOf(FRENCH_WORDS)),
    build('de', datasetOf(GERMAN_WORDS)),
  ]
  return matchers
}

/**
 * Folds what obscenity does not: accents and ligatures off (é → e, œ → oe, ß → ss), compatibility
 * forms to plain letters (ｆ → f, 𝐟 → f), invisible characters dropped (f\u200Bck).
 */
export function foldText(text: string): string {
  return (
    text
      .replace(/ß/g, 'ss')
      .replace(/ẞ/g, 'SS')
      .replace(/œ/g, 'oe')
      .replace(/Œ/g, 'OE')
      .replace(/æ/g, 'ae')
      .replace(/Æ/g, 'AE')
      .normalize('NFKD')
      .replace(/[\p{Mn}\p{Cf}]/gu, '')
      .normalize('NFC')
      // obscenity reads ! | ( / as the letters i i c l (sh!t): only inside a word, not as punctuation
      // around one ("Hure!", "(pute)"), where they would glue a letter on and hide the word.
      .replace(/(?<![\p{L}\p{N}])[!|(/)]+|[!|(/)]+(?![\p{L}\p{N}])/gu, ' ')
  )
}

/** "f u c k", "f.u.c.k", "s-h-i-t": letters spelled out one by one are joined back into a word. */
export function joinSpelledOut(text: string): string {
  return text.replace(
    /(?<![\p{L}\p{N}])(?:[\p{L}\p{N}@$][\s.\-_*+~]+){2,}[\p{L}\p{N}@$](?![\p{L}\p{N}])/gu,
    (run) => run.replace(/[\s.\-_*+~]+/g, ''),
  )
}

/** Profane or hateful words (en, fr, de) found in one piece of text: `word (language)` each, no repeats. */
export function findProfanity(text: string): Array<{ word: string; language: Language }> {
  const folded = foldText(text)
  const variants = [folded]
  const joined = joinSpelledOut(folded)
  if (joined !== folded) variants.push(joined)
  const found = new Map<string, { word: string; language: Language }>()
  for (const { language, matcher, wordOf } of languageMatchers()) {
    for (const variant of variants) {
      for (const match of matcher.getAllMatches(variant, true)) {
        const word = wordOf(match.termId)
        found.set(`${language}:${word}`, { word, language })
      }
    }
  }
  return [...found.values()]
}

/**
 * Checks a shout's buyer name, recipient name and message for profanity and slurs in English, French
 * and German. Flagged text is not refused: the app shows the ProhibitedContent notice and the order
 * goes to UnderReview.
 */
export function moderateText(fields: TextFields): TextModerationResult {
  const reasons: string[] = []
  for (const field of FIELDS) {
    const value = fields[field]
    if (!value) continue
    for (const { word, language } of findProfanity(value))
      reasons.push(`${field}: "${word}" (${language})`)
  }
  return { flagged: reasons.length > 0, reasons }
}
