import { advertisers } from './advertisers'
import { billboards } from './billboards'
import { content } from './content'
import type { Endpoint } from './endpoint'
import { mail } from './mail'
import { meta } from './meta'
import { ops } from './ops'
import { opsCampaigns } from './ops-campaigns'
import { opsConsole } from './ops-console'
import { order } from './order'
import { payment } from './payment'
import { player } from './player'
import { push } from './push'
import { share } from './share'
import { spotlight } from './spotlight'

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
  opsConsole,
  advertisers,
  opsCampaigns,
  billboards,
} as const

export const allEndpoints: readonly Endpoint[] = Object.values(api).flatMap((area) =>
  Object.values(area),
)

export * from './advertisers'
export * from './billboards'
export * from './common'
export * from './content'
export * from './endpoint'
export * from './issues'
export * from './mail'
export * from './meta'
export * from './ops'
export * from './ops-campaigns'
export * from './ops-console'
export * from './order'
export * from './payment'
export * from './player'
export * from './problems'
export * from './push'
export * from './share'
export * from './spotlight'
export * from './sw'
