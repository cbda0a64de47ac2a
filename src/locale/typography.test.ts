import { describe, expect, it } from 'vitest'
import { frenchTypography } from './typography'

const nnbsp = '\u202f'

describe('French typography', () => {
  it.each([
    ['Étape 1 sur 6:', `Étape 1 sur 6${nnbsp}:`],
    ['Étape {0} sur {1} : {2}', `Étape {0} sur {1}${nnbsp}: {2}`],
    ['essayez : 06 12 34 56 78', `essayez${nnbsp}: 06 12 34 56 78`],
    ['Vraiment ?', `Vraiment${nnbsp}?`],
    ['Merci!', `Merci${nnbsp}!`],
    ['Quoi ?!', `Quoi${nnbsp}?!`],
    ['un ; deux', `un${nnbsp}; deux`],
    ['<0>Note:</0> lisez', `<0>Note${nnbsp}:</0> lisez`],
    ['« Bonjour » !', `« Bonjour »${nnbsp}!`],
  ])('spaces %j', (text, typeset) => {
    expect(frenchTypography(text)).toBe(typeset)
  })

  it.each([
    '29 nov. à 08:00',
    'https://shouts.example/fr',
    '/paris?device=paris-opera-1',
    'Bonjour',
    '{count, plural, one {# shout} other {# shouts}}',
  ])('leaves %j as it is', (text) => {
    expect(frenchTypography(text)).toBe(text)
  })

  it('is the same when applied twice', () => {
    const once = frenchTypography('Étape 1 sur 6 : prêt ? oui !')
    expect(frenchTypography(once)).toBe(once)
  })
})
