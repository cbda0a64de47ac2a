import { describe, expect, it } from 'vitest'
import { messages } from '../../domain/messages'
import source from './domain-messages.ts?raw'

// The table gives each spec message its translation, looked up by the English text: its English source
// must be the domain's own text, or the lookup would miss it. Lingui macros cannot be imported in
// Vitest (docs/development.md), so the test reads the source.
describe('domain messages', () => {
  it('translates the domain messages word for word from their English source', () => {
    const pairs = [...source.matchAll(/\[messages\.(\w+)\]: msg`([^`]*)`/g)]
    expect(pairs.length).toBeGreaterThan(20)
    for (const [, key, text] of pairs) {
      expect(messages[key as keyof typeof messages], key).toBe(text)
    }
  })
})
