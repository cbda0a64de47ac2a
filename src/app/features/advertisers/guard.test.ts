import { describe, expect, it } from 'vitest'
import { signInAddress } from './guard'

describe('an ended advertiser session sends the browser to sign in, in its language', () => {
  it('keeps French and German, and the page to come back to', () => {
    expect(signInAddress('/fr/campaigns/abc-123')).toBe('/fr/account?next=%2Fcampaigns%2Fabc-123')
    expect(signInAddress('/de/campaigns/new')).toBe('/de/account?next=%2Fcampaigns%2Fnew')
    expect(signInAddress('/campaigns')).toBe('/account?next=%2Fcampaigns')
  })

  it('comes back only to an advertiser page', () => {
    expect(signInAddress('/de/proposal/p-1')).toBe('/de/account?next=%2Fproposal%2Fp-1')
    expect(signInAddress('/de/share-the-love/design/location')).toBe('/de/account')
    expect(signInAddress('/fr/account')).toBe('/fr/account')
    expect(signInAddress('/account')).toBe('/account')
  })
})
