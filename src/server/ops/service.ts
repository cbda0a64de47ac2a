import type { AdvertisersReads } from '../advertisers/service.ts'
import type { AuthService } from '../auth/service.ts'
import type { CatalogueService } from '../catalogue/service.ts'
import type { OrderService } from '../order/service.ts'
import type { SoldSlots } from '../order/sold-slots.ts'
import type { PaymentService } from '../payment/service.ts'
import type { Database } from '../platform/db/client.ts'
import type { Logger } from '../platform/log.ts'
import type { PlayerService } from '../player/service.ts'
import { type BillboardsError, createConsoleBillboards } from './billboards.ts'
import { type CatalogueUploadError, createCatalogueUpload } from './catalogue-upload.ts'
import { createDashboard } from './dashboard.ts'
import { createConsoleOrders, type OrdersError } from './orders.ts'
import { createProofExport, type ProofExportError } from './proof-export.ts'

// The operators' console (api-v1 "Operations", /api/v1/ops): the orders to review, find, approve and
// cancel, and the audit log (orders.ts); the billboards, a billboard's day and player links
// (billboards.ts); the catalogue upload (catalogue-upload.ts); the dashboard (dashboard.ts); the
// proof-of-play export (proof-export.ts). The
// console owns no table: it works through the services and read models of the modules that own
// them (order, payment, auth, catalogue, player, advertisers). Sign-in is auth/'s, the outbox mail/'s.

export type OpsError = OrdersError | BillboardsError | CatalogueUploadError | ProofExportError

export type { OpsOrderOut } from './orders.ts'

export type OpsService = ReturnType<typeof createOpsService>

export function createOpsService(deps: {
  database: Database
  catalogue: CatalogueService
  orders: OrderService
  soldSlots: SoldSlots
  payment: PaymentService
  auth: AuthService
  player: PlayerService
  /** Campaigns' plays and charged money (the advertisers' service). */
  ads: AdvertisersReads
  log: Logger
  now: () => number
  /** MAKE_GOOD_GRACE_HOURS (the dashboard's missed plays) */
  graceHours: number
}) {
  return {
    ...createConsoleOrders({ ...deps, catalogue: deps.catalogue.reads }),
    ...createConsoleBillboards(deps),
    ...createCatalogueUpload(deps),
    ...createDashboard(deps),
    ...createProofExport(deps),
  }
}
