import type { CatalogueReads } from './catalogue-reads.ts'
import type { OrderService } from './orders/service.ts'
import type { PaymentProvider } from './payment/provider.ts'
import type { Database, Db } from './platform/db/client.ts'
import type { Env } from './platform/env.ts'
import type { Logger } from './platform/log.ts'
import type { SoldSlots } from './sold-slots.ts'

// What every part of the server is handed; built once in main.ts (tests build it the same way).
export type ServerDeps = {
  database: Database
  db: Db
  env: Env
  dataDir: string
  log: Logger
  payment: PaymentProvider
  catalogue: CatalogueReads
  soldSlots: SoldSlots
  orders: OrderService
  now: () => number
  /** The built PWA to serve, or null for an API-only server. */
  distDir: string | null
}
