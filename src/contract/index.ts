import { advertisers } from './advertisers'
import { advertiserBilling } from './advertisers-billing'
import { advertiserDoor } from './advertisers-door'
import { advertiserTeam } from './advertisers-team'
import { billboards } from './billboards'
import { spotlight } from './catalogue'
import { content } from './content'
import type { Endpoint } from './endpoint'
import { mail } from './mail'
import { map } from './map'
import { meta } from './meta'
import { opsAdvertisers } from './ops/advertisers'
import { opsBillboards } from './ops/billboards'
import { opsCampaigns } from './ops/campaigns'
import { opsCatalogue } from './ops/catalogue'
import { opsDashboard } from './ops/dashboard'
import { opsInvoices } from './ops/invoices'
import { ops } from './ops/orders'
import { order } from './order'
import { payment } from './payment'
import { player } from './player'
import { push } from './push'
import { share } from './share'

// The whole of /api/v1, by area. The server registers exactly these (a test compares them with its
// routes) and the OpenAPI document lists exactly these. Import an area's file directly where bundle
// size matters (the app): this index pulls in every schema.

export const api = {
  meta,
  spotlight,
  content,
  order,
  payment,
  player,
  push,
  share,
  ops,
  mail,
  opsBillboards,
  opsCatalogue,
  opsDashboard,
  advertisers,
  advertiserDoor,
  opsCampaigns,
  opsAdvertisers,
  billboards,
  advertiserBilling,
  advertiserTeam,
  opsInvoices,
  map,
} as const

export const allEndpoints: readonly Endpoint[] = Object.values(api).flatMap((area) =>
  Object.values(area),
)

export * from './advertisers'
export * from './advertisers-door'
export * from './billboards'
export * from './catalogue'
export * from './common'
export * from './content'
export * from './endpoint'
export * from './issues'
export * from './mail'
export * from './map'
export * from './meta'
export * from './ops/advertisers'
export * from './ops/billboards'
export * from './ops/campaigns'
export * from './ops/catalogue'
export * from './ops/dashboard'
export * from './ops/orders'
export * from './order'
export * from './payment'
export * from './player'
export * from './problems'
export * from './push'
export * from './share'
export * from './sw'
