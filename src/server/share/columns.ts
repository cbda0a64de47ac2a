import { columnMap } from '../platform/db/columns.ts'
import type { ShareRow } from './repo.ts'

// shares (migration 0023) as repo.ts's rows name its fields: the select and `returning` lists
// are written from this one declaration.

export const SHARES = columnMap<ShareRow>('shares', {
  shareId: 'share_id',
  orderGuid: 'order_guid',
  eventSlug: 'event_slug',
  locale: 'locale',
  imageName: 'image_name',
  createdAtEpochMs: { column: 'created_at_epoch_ms', cast: 'bigint' },
})
