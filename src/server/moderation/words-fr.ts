// French profanity and slurs ("word lists for fr and de"). Patterns use obscenity's syntax and
// are matched after its transformers: lower case, leet-speak and look-alikes resolved, and repeated
// letters collapsed to one (two for b, e, o, l, s, g), so they are written collapsed: 'conard' for
// "connard". Accents are removed before matching ("enculé" → "encule"). `|` marks a word boundary,
// used where the letters also occur inside clean words.
export type WordEntry = {
  /** The word as people write it; tests check each one is caught. */
  word: string
  patterns: string[]
}

export const FRENCH_WORDS: WordEntry[] = [
  { word: 'merde', patterns: ['merde'] },
  { word: 'putain', patterns: ['|putain'] },
  { word: 'pute', patterns: ['|pute|', '|putes|'] },
  { word: 'fdp', patterns: ['|fdp|'] },
  { word: 'salope', patterns: ['salope'] },
  { word: 'salaud', patterns: ['|salaud'] },
  { word: 'enculé', patterns: ['encul'] },
  { word: 'connard', patterns: ['conard'] },
  { word: 'connasse', patterns: ['conasse'] },
  { word: 'nique ta mère', patterns: ['|niqu'] },
  { word: 'bâtard', patterns: ['|batard'] },
  { word: 'couilles', patterns: ['couille'] },
  { word: 'branleur', patterns: ['|branl'] },
  { word: 'fais chier', patterns: ['|chier|', '|chiant'] },
  { word: 'pétasse', patterns: ['petasse'] },
  { word: 'enfoiré', patterns: ['|enfoire'] },
  { word: 'va te faire foutre', patterns: ['|foutre'] },
  { word: 'trou du cul', patterns: ['trou du cul'] },
  { word: 'nichons', patterns: ['|nichon'] },
  { word: 'suce ma bite', patterns: ['suce ma', 'ma bite'] },
  // Slurs.
  { word: 'pédé', patterns: ['|pede|', '|pedes|'] },
  { word: 'tarlouze', patterns: ['tarlouze'] },
  { word: 'gouine', patterns: ['|gouine'] },
  { word: 'bougnoule', patterns: ['bougnoul'] },
  { word: 'nègre', patterns: ['|negre'] },
  { word: 'youpin', patterns: ['|youpin'] },
  { word: 'bamboula', patterns: ['|bamboula'] },
  { word: 'bicot', patterns: ['|bicot'] },
]

/** Clean French words that a pattern of any language would otherwise catch. */
export const FRENCH_CLEAN_WORDS: string[] = [
  'assez', // en: ass
  'salopette', // fr: salope
  'en retard', // en: retard ("late")
  'de retard',
  'du retard',
  'le retard',
  'un retard',
  'sans retard',
  'retarder',
  'retardee',
  'retardement',
  'retardataire',
]
