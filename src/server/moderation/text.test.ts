import { describe, expect, it } from 'vitest'
import { findProfanity, foldText, joinSpelledOut, moderateText } from './text.ts'
import { GERMAN_WORDS } from './words-de.ts'
import { FRENCH_WORDS } from './words-fr.ts'

const flagged = (text: string) => moderateText({ multilineMessage: text }).flagged

describe('moderateText: profanity in each language is flagged', () => {
  it.each([
    'What the fuck',
    'you little bitch',
    'eat shit',
    'Happy birthday, asshole',
    'motherfucker',
  ])('English: %s', (text) => {
    expect(flagged(text)).toBe(true)
  })

  it.each(FRENCH_WORDS.map((entry) => entry.word))('French: %s', (word) => {
    expect(flagged(`Joyeux anniversaire, ${word} !`)).toBe(true)
  })

  it.each(GERMAN_WORDS.map((entry) => entry.word))('German: %s', (word) => {
    expect(flagged(`Alles Gute, ${word}!`)).toBe(true)
  })

  it('says which field and which word, in which language', () => {
    expect(
      moderateText({
        buyerName: 'Connard',
        recipientName: 'Anna',
        multilineMessage: 'Du Arschloch, fuck you',
      }),
    ).toEqual({
      flagged: true,
      reasons: [
        'buyerName: "connard" (fr)',
        'multilineMessage: "fuck" (en)',
        'multilineMessage: "Arschloch" (de)',
      ],
    })
  })
})

describe('moderateText sees through disguises', () => {
  it.each([
    ['leet-speak', 'sh1t happens'],
    ['leet-speak (fr)', 'put41n'],
    ['leet-speak (de)', '4rschl0ch'],
    ['stretched letters', 'fuuuuuuck'],
    ['stretched letters (de)', 'SCHEIIIIISSE'],
    ['stretched letters (fr)', 'connnnnaaard'],
    ['Cyrillic look-alikes', 'fuсk'], // с is Cyrillic
    ['Cyrillic а in French', 'sаlope'], // а is Cyrillic
    ['Greek look-alikes', 'fυck'],
    ['fullwidth letters', 'ｆｕｃｋ'],
    ['fullwidth letters (de)', 'Ｓｃｈｅｉｓｓｅ'],
    ['mathematical letters', '𝐟𝐮𝐜𝐤'],
    ['accents added', 'fück'],
    ['accents removed', 'encule'],
    ['ß spelled ss', 'Scheisse'],
    ['invisible characters', 'sh\u200Bit'],
    ['leet inside, punctuation around', '(sh!t!)'],
    ['spelled out with spaces', 'f u c k you'],
    ['spelled out with dots', 'm.e.r.d.e'],
  ])('%s: %s', (_, text) => {
    expect(flagged(text)).toBe(true)
  })
})

describe('moderateText leaves clean words alone', () => {
  it.each([
    // The Scunthorpe problem: clean words with bad letters inside.
    'assistant',
    'Schwanensee',
    'Konstantinopel',
    'bassiste',
    'Scunthorpe United',
    'Shiitake risotto',
    'cocktail party in Middlesex',
  ])('%s', (text) => {
    expect(flagged(text)).toBe(false)
  })

  it.each([
    'Happy birthday Sarah! Love you to the moon and back.',
    'Congratulations to the class of 2026, we are so proud of you',
    'Will you marry me, Jessica?',
  ])('English: %s', (text) => {
    expect(flagged(text)).toBe(false)
  })

  it.each([
    "Joyeux anniversaire ma chérie, je t'aime",
    'Tu es encore en retard, mais on t’aime assez pour attendre',
    'Félicitations au bassiste du groupe, quelle assiette de frites !',
    'Ma petite salopette bleue, vive les mariés',
    'Bon appétit et bonne analyse du canal',
  ])('French: %s', (text) => {
    expect(flagged(text)).toBe(false)
  })

  it.each([
    'Herzlichen Glückwunsch zum Geburtstag, mein Schatz',
    'Dicke Umarmung aus Kassel und ein dicker Kuss',
    'Wir fahren über den Ärmelkanal nach Konstantinopel',
    'Ich spiele Fagott im Orchester, Schwanensee ist mein Lieblingsstück',
    'Eine kluge Entscheidung: Marsch zum Barsch-Essen',
  ])('German: %s', (text) => {
    expect(flagged(text)).toBe(false)
  })

  it('passes empty and missing fields', () => {
    expect(moderateText({})).toEqual({ flagged: false, reasons: [] })
    expect(moderateText({ buyerName: '', recipientName: null, multilineMessage: '\n\n' })).toEqual({
      flagged: false,
      reasons: [],
    })
  })
})

describe('helpers', () => {
  it('foldText removes accents, ligatures, compatibility forms and invisible characters', () => {
    expect(foldText('Scheiße cœur ｆｕｌｌ é\u200B')).toBe('Scheisse coeur full e')
    expect(foldText('(Hure!) sh!t')).toBe(' Hure  sh!t')
  })

  it('joinSpelledOut joins single letters and leaves words alone', () => {
    expect(joinSpelledOut('f u c k off, a b')).toBe('fuck off, a b')
    expect(joinSpelledOut('I am a big fan')).toBe('I am a big fan')
  })

  it('findProfanity reports each word once', () => {
    expect(findProfanity('shit shit sh1t')).toEqual([{ word: 'shit', language: 'en' }])
  })
})
