import type { Context, MiddlewareHandler } from 'hono'
import { PLAY_LOG_FILE, player as playerApi, SMIL_MEDIA_TYPE } from '../../contract/index.ts'
import type { WindowProblem } from '../../domain/schedule.ts'
import { problem, type Refusal, refuse } from '../platform/http/errors.ts'
import { acceptsGzip, readJson, readText } from '../platform/http/json.ts'
import type { ApiRouter } from '../platform/http/router.ts'
import { type ClientLimits, type LimitRule, tooManyRequests } from '../platform/rate-limit.ts'
import { err, mapErr, ok } from '../platform/result.ts'
import type { PlayerError } from './errors.ts'
import { MAX_PLAY_LOG_BYTES, readPlayLogReport } from './play-log-xml.ts'
import { scheduleBody } from './schedule-items.ts'
import type { PlayerService } from './service.ts'
import { notModified } from './smil.ts'

// api-v1 "Player" over HTTP: the token check before anything is read, then the schedule and the
// proof of play.

/** 500 plays of about 200 bytes each: more than the 64 KB other JSON bodies may have. */
const PLAYS_BODY_LIMIT = 256 * 1024

/**
 * Batches of proofs a billboard may post a minute, whatever address it posts from: its player posts
 * about one a minute, and more after an outage, so a flood is what this stops.
 */
export const PLAYS_POSTS_PER_MINUTE: LimitRule = {
  bucket: 'player-plays',
  limit: 30,
  windowMs: 60_000,
}

/** House cards one client address may fetch a minute (each billboard's player: one per change). */
export const HOUSE_CARDS_PER_MINUTE: LimitRule = {
  bucket: 'house-card',
  limit: 60,
  windowMs: 60_000,
}

/** A service's error as problems (their statuses and texts are the catalogue's). */
export const playerRefusal = <E extends PlayerError>(error: E) =>
  refusalOf(error) as Refusal<PlayerRefusalCode<E>>

/** The codes a player error is answered with: a window's problem, a busy card's 429, its own. */
export type PlayerRefusalCode<E extends PlayerError> = E extends {
  code: 'schedule_window_invalid'
  problem: infer W extends WindowProblem
}
  ? W
  : E extends { code: 'house_card_busy' }
    ? 'too_many_requests'
    : Exclude<E['code'], 'schedule_window_invalid' | 'house_card_busy'>

function refusalOf(error: PlayerError): Refusal {
  return {
    problems: [
      error.code === 'schedule_window_invalid'
        ? problem(error.problem)
        : error.code === 'house_card_busy'
          ? tooManyRequests(1)
          : problem(error.code),
    ],
  }
}

/**
 * The token of the request: `Authorization: Bearer TOKEN`, else the path's token segment (the play
 * logs of players that send no credentials), else `?token=TOKEN`.
 */
function tokenOf(c: Context): string | null {
  const header = c.req.header('authorization')
  const bearer = header?.match(/^Bearer\s+(\S+)\s*$/i)?.[1]
  return bearer ?? c.req.param('token') ?? c.req.query('token') ?? null
}

export function playerRoutes(router: ApiRouter, service: PlayerService, limits: ClientLimits) {
  // Runs before the router reads the query or the body: a caller without a token learns nothing else.
  const playerOnly: MiddlewareHandler = async (c, next) => {
    const deviceId = c.req.param('deviceId') ?? ''
    const allowed = await service.authenticate(deviceId, tokenOf(c))
    if (!allowed.ok) return refuse(playerRefusal(allowed.error))
    // A player's answers are its own: no shared cache may keep them.
    c.header('Cache-Control', 'no-store')
    await next()
  }

  router.handle(
    playerApi.schedule,
    async ({ c, params, query }) => {
      const schedule = await service.schedule(params.deviceId, query)
      if (!schedule.ok) return err(playerRefusal(schedule.error))
      const { body, gzipped } = await scheduleBody(
        schedule.value,
        acceptsGzip(c.req.header('accept-encoding')),
      )
      return ok(
        c.body(body, 200, {
          'Content-Type': 'application/json',
          ...(gzipped ? { 'Content-Encoding': 'gzip' } : {}),
          Vary: 'Accept-Encoding',
        }),
      )
    },
    playerOnly,
  )

  router.handle(
    playerApi.scheduleSmil,
    async ({ c, params, query }) => {
      const smil = await service.smil(params.deviceId, query, tokenOf(c) ?? '')
      if (!smil.ok) return err(playerRefusal(smil.error))
      const { body, etag, lastModifiedEpochMs } = smil.value
      const headers = {
        ETag: etag,
        'Last-Modified': new Date(lastModifiedEpochMs).toUTCString(),
      }
      const unchanged = notModified(
        {
          ifNoneMatch: c.req.header('if-none-match'),
          ifModifiedSince: c.req.header('if-modified-since'),
        },
        { etag, lastModifiedEpochMs },
      )
      if (unchanged) return ok(c.body(null, 304, headers))
      return ok(
        c.body(body, 200, {
          ...headers,
          'Content-Type': `${SMIL_MEDIA_TYPE}; charset=utf-8`,
          // HEAD answers the size too (garlic-player compares it when a server sends no ETag)
          'Content-Length': String(Buffer.byteLength(body)),
        }),
      )
    },
    playerOnly,
  )

  router.handle(
    playerApi.houseCard,
    async ({ c, params }) => {
      const png = await service.houseCardPng(params.deviceId)
      if (!png.ok) {
        if (png.error.code === 'house_card_busy') c.header('Retry-After', '1')
        return err(playerRefusal(png.error))
      }
      return ok(
        c.body(new Uint8Array(png.value), 200, {
          'Content-Type': 'image/png',
          'Cache-Control': 'public, max-age=300',
        }),
      )
    },
    // public: a player fetches its card when the catalogue changes it, so a flood is what this stops
    limits.byKey(HOUSE_CARDS_PER_MINUTE, (c) => limits.clientKey(c)),
  )

  router.handle(
    playerApi.heartbeat,
    async ({ params, body }) => {
      const answer = await service.heartbeat(params.deviceId, body)
      return mapErr(answer, playerRefusal)
    },
    playerOnly,
  )

  router.handle(
    playerApi.plays,
    async ({ params, body }) => {
      const answer = await service.recordPlays(params.deviceId, body.plays)
      return mapErr(answer, playerRefusal)
    },
    playerOnly,
    limits.byKey(PLAYS_POSTS_PER_MINUTE, (c) => c.req.param('deviceId') ?? ''),
    async (c, next) => {
      // read once with the larger limit; the router's own read takes the parsed body from here
      await readJson(c, PLAYS_BODY_LIMIT)
      await next()
    },
  )

  playLogRoutes(router, service, { playerOnly, limits })
}

/**
 * The SMIL players' play logs (play-logs.ts): garlic's and IAdea's XML PUT, signageOS's JSON POST
 * and its CORS preflight. Each as limited as the web player's proofs, by billboard.
 */
function playLogRoutes(
  router: ApiRouter,
  service: PlayerService,
  { playerOnly, limits }: { playerOnly: MiddlewareHandler; limits: ClientLimits },
) {
  const perBillboard = limits.byKey(PLAYS_POSTS_PER_MINUTE, (c) => c.req.param('deviceId') ?? '')
  router.handle(
    playerApi.playLog,
    async ({ c, params }) => {
      if (!PLAY_LOG_FILE.test(params.fileName))
        return err({ problems: [problem('play_log_invalid')] })
      const report = readPlayLogReport(await readText(c, MAX_PLAY_LOG_BYTES))
      if (!report) return err({ problems: [problem('play_log_invalid')] })
      const answer = await service.playLog(params.deviceId, report)
      return mapErr(answer, playerRefusal)
    },
    playerOnly,
    perBillboard,
  )

  // signageOS's web view may ask first (the contract's `cors`: the router answers the preflight)
  router.handle(
    playerApi.popReports,
    async ({ params, body }) => {
      const answer = await service.popReports(params.deviceId, body)
      return mapErr(answer, playerRefusal)
    },
    playerOnly,
    perBillboard,
    async (c, next) => {
      await readJson(c, PLAYS_BODY_LIMIT)
      await next()
    },
  )
}
