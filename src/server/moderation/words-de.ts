// German profanity and slurs. Same conventions as words-fr.ts: patterns are written as they
// look after obscenity's transformers (repeated letters collapsed: 'pimel' for "Pimmel"), after accents
// are removed and ß is written ss ("Scheiße" → "scheisse").
import type { WordEntry } from './words-fr.ts'

export const GERMAN_WORDS: WordEntry[] = [
  { word: 'Scheiße', patterns: ['scheis'] },
  { word: 'Arschloch', patterns: ['|arsch', 'arschloch', 'vollarsch'] },
  { word: 'ficken', patterns: ['|fick'] },
  { word: 'Fotze', patterns: ['fotze'] },
  { word: 'Hure', patterns: ['|hure', 'hurensohn'] },
  { word: 'Schlampe', patterns: ['schlampe'] },
  { word: 'Wichser', patterns: ['|wichs', '|wixe'] },
  { word: 'Schwanzlutscher', patterns: ['|schwanz|', 'schwanzlutsch'] },
  { word: 'Pimmel', patterns: ['pimel'] },
  { word: 'Titten', patterns: ['|titen'] },
  { word: 'Nutte', patterns: ['|nute'] },
  { word: 'Missgeburt', patterns: ['missgeburt'] },
  { word: 'Kacke', patterns: ['|kacke', '|kack|'] },
  { word: 'verpiss dich', patterns: ['verpiss'] },
  { word: 'Drecksau', patterns: ['drecksau', 'dreckschwein'] },
  { word: 'Hackfresse', patterns: ['hackfresse'] },
  { word: 'Leck mich', patterns: ['leck mich'] },
  // Slurs and hate slogans.
  { word: 'Spast', patterns: ['|spast|', '|spasti|', '|spastis|'] },
  { word: 'Schwuchtel', patterns: ['schwuchtel'] },
  { word: 'Kanake', patterns: ['|kanake'] },
  { word: 'Neger', patterns: ['|neger'] },
  { word: 'Judensau', patterns: ['judensau'] },
  { word: 'Zigeuner', patterns: ['zigeuner'] },
  { word: 'Schlitzauge', patterns: ['schlitzauge'] },
  { word: 'Sieg Heil', patterns: ['sieg heil', 'heil hitler'] },
]

/** Clean German (and English) words that a pattern of any language would otherwise catch. */
export const GERMAN_CLEAN_WORDS: string[] = [
  'fagott', // en: fag
  'dicke', // en: dick ("dick" is German for fat/thick)
  'dicken',
  'dicker',
  'dickes',
  'dickerchen',
  'dickicht',
  'dickkopf',
  'dickhauter',
  'kanal', // en: anal ("Kanal", "Ärmelkanal", "Kanalisation")
  'annalen',
  'nutella', // de: Nutte
  'fickle', // de: fick
  'shiitake', // en: shit
  'penistone', // en: penis
]
