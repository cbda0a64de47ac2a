import type { BillboardForSale } from '../../../contract/advertisers-door.ts'
import { adPlayCostCents } from '../../../domain/campaign.ts'
import { adBillboards } from '../../catalogue/ad-reads.ts'
import type { Database } from '../../platform/db/client.ts'

// What the public /advertise page shows (GET /advertisers/billboards): every billboard sold to
// advertisers, its audience and its price per play, the same for everyone. No free plays (that
// needs a flight, and tells competitors what sells): a signed-in planner asks the inventory for them.
// Read from the catalogue at most once a minute per instance, whatever the traffic; the answer
// may then be kept five minutes by browsers and shared caches, so a price changed by a catalogue
// import shows on this page within six minutes (a proposal always prices from the catalogue as it is).

/** How long an instance answers from its last read. */
export const FOR_SALE_READ_MS = 60_000

export function createBillboardsForSale(deps: { database: Database; now: () => number }) {
  let kept: { readAtMs: number; billboards: Promise<BillboardForSale[]> } | null = null

  async function read(): Promise<BillboardForSale[]> {
    const all = await adBillboards(deps.database)
    return all.flatMap((b) =>
      b.impressionsPerPlay !== null && b.adCpmCents !== null && b.adCurrency !== null
        ? [
            {
              deviceId: b.deviceId,
              location: b.location,
              city: b.city,
              country: b.country,
              timeZoneId: b.timeZoneId,
              coordinates: b.coordinates,
              imageUrl: b.imageUrl,
              impressionsPerPlay: b.impressionsPerPlay,
              currency: b.adCurrency,
              costCentsPerPlay: adPlayCostCents(b.impressionsPerPlay, b.adCpmCents),
            },
          ]
        : [],
    )
  }

  return async function billboardsForSale(): Promise<BillboardForSale[]> {
    const nowMs = deps.now()
    if (!kept || nowMs - kept.readAtMs >= FOR_SALE_READ_MS || nowMs < kept.readAtMs) {
      const reading = read()
      kept = { readAtMs: nowMs, billboards: reading }
      // a failed read is not kept: the next request reads again
      reading.catch(() => {
        if (kept?.billboards === reading) kept = null
      })
    }
    return kept.billboards
  }
}
