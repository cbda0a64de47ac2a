import { billboards } from '../../contract/billboards.ts'
import type { OpsGuard } from '../auth/guard.ts'
import { problem } from '../platform/http/errors.ts'
import type { ApiRouter } from '../platform/http/router.ts'
import { err, ok } from '../platform/result.ts'
import type { PlayerService } from './service.ts'

// The console's Billboards page (the fleet, a billboard's last 7 days) over HTTP, through the ops guard (Origin, session, role).
export function billboardConsoleRoutes(router: ApiRouter, guard: OpsGuard, service: PlayerService) {
  guard.handle(router, billboards.health, async () => ok(await service.health()))
  guard.handle(router, billboards.week, async ({ params }) => {
    const week = await service.week(params.deviceId)
    return week ? ok(week) : err(problem('device_not_found'))
  })
}
