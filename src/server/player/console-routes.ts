import { billboards } from '../../contract/billboards.ts'
import type { OpsGuard } from '../auth/guard.ts'
import type { ApiRouter } from '../platform/http/router.ts'
import type { PlayerService } from './service.ts'

// The console's Billboards page over HTTP, through the ops guard (Origin, session, role).
export function billboardConsoleRoutes(router: ApiRouter, guard: OpsGuard, service: PlayerService) {
  guard.handle(router, billboards.health, async () => service.health())
}
