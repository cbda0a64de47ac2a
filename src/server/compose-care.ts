import type { AuthService } from './auth/service.ts'
import type { CatalogueReads } from './catalogue/service.ts'
import type { MailService } from './mail/service.ts'
import { makeGoodsJob } from './make-good/jobs.ts'
import { createMakeGoodService } from './make-good/service.ts'
import type { OrderService } from './order/service.ts'
import type { PaymentService } from './payment/service.ts'
import type { Database } from './platform/db/client.ts'
import type { Env } from './platform/env.ts'
import type { Logger } from './platform/log.ts'
import type { Job } from './platform/scheduler.ts'
import { billboardOutagesJob } from './player/jobs.ts'
import { createOutageAlerts } from './player/outages.ts'

// Part of the composition root (compose.ts): the jobs that look after what billboards owe, the
// make-goods of plays without proof and the admins' offline and back-online alerts.

export function billboardCareJobs(parts: {
  env: Env
  database: Database
  log: Logger
  now: () => number
  catalogue: CatalogueReads
  orders: OrderService
  payment: PaymentService
  mail: MailService
  auth: AuthService
}): Job[] {
  const { env, database, log, now } = parts
  const makeGoods = createMakeGoodService({
    ...{ database, log, now, catalogue: parts.catalogue, orders: parts.orders },
    payment: parts.payment,
    graceHours: env.MAKE_GOOD_GRACE_HOURS,
  })
  const outages = createOutageAlerts({
    ...{ database, now, mail: parts.mail, offlineMinutes: env.BILLBOARD_OFFLINE_MINUTES },
    log: log.child({ component: 'billboard-outages' }),
    admins: () => parts.auth.adminRecipients(),
  })
  return [makeGoodsJob(makeGoods), billboardOutagesJob(outages)]
}
