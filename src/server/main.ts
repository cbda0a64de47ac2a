import { existsSync } from 'node:fs'
import type { Agent } from 'node:https'
import type { AddressInfo } from 'node:net'
import { join, resolve } from 'node:path'
import { pathToFileURL } from 'node:url'
import { serve } from '@hono/node-server'
import { createApp } from './app.ts'
import { type ContentOverrides, composeServer, type ServerParts } from './compose.ts'
import { composeVideo } from './compose-content.ts'
import type { Clock } from './platform/clock.ts'
import { parseEnv, wantsDemoCatalogue } from './platform/env.ts'
import { createLogger, type Logger } from './platform/log.ts'
import { PROJECT_ROOT } from './platform/paths.ts'

// The server's entry (`npm start`): reads the environment once, through the schema (platform/env.ts),
// hands the settings to the composition root (compose.ts), serves the app it returns.

const DIST_DIR = join(PROJECT_ROOT, 'dist')

/**
 * Slowloris: a client sending its headers or body one byte a second held a connection
 * for ever. Headers must arrive within 20 s; a whole request within 10 minutes (a 200 MB video on
 * 3 Mbit/s mobile data takes about 9); a connection idle both ways closes after 60 s, a kept-alive
 * one after 5 s between requests. Node checks these every `connectionsCheckingInterval`.
 */
export const HTTP_TIMEOUTS = {
  headersTimeout: 20_000,
  requestTimeout: 10 * 60_000,
  idleTimeout: 60_000,
  keepAliveTimeout: 5_000,
  connectionsCheckingInterval: 2_000,
}
export type HttpTimeouts = typeof HTTP_TIMEOUTS

export type StartOptions = {
  port?: number
  hostname?: string
  dataDir?: string
  databaseUrl?: string
  /** Extra environment (APP_ENV, STRIPE_SECRET_KEY, S3_*, MODERATION_*...) over process.env. */
  env?: Record<string, string | undefined>
  /** Where to listen when HOST is unset; default loopback (`npm start` listens on all interfaces). */
  defaultHostname?: string
  /** Serve the built PWA (`npm run build` made it; refused without it). API tests turn it off. */
  serveApp?: boolean
  /**
   * Import the demo catalogue into an empty database (default: as the settings say, APP_ENV local or
   * DEMO_CATALOGUE; false always wins).
   */
  demoCatalogue?: boolean
  /** Clock for the shop's rules (tests move time); defaults to Date.now. */
  now?: () => number
  /** The clock the background jobs run by (tests: platform/clock.ts createManualClock). */
  clock?: Clock
  log?: Logger
  /** Replacements for the content defaults (video processors and generators). */
  content?: ContentOverrides
  /** The TLS agent play alerts are sent through (tests: one trusting the push stand-in). */
  pushAgent?: Agent
  /** Shorter HTTP timeouts (tests of the timeouts themselves); default HTTP_TIMEOUTS. */
  httpTimeouts?: Partial<HttpTimeouts>
}

export type RunningServer = {
  url: string
  port: number
  /** What the app was built from (compose.ts): the database, the settings, the modules. */
  deps: ServerParts
  /** Every route the HTTP app registered (method and path, Hono's syntax). */
  routes(): readonly { method: string; path: string }[]
  /** The content worker's pid while it runs (content/content-worker.ts), else null. */
  contentWorkerPid(): number | null
  close(): Promise<void>
}

/**
 * What serving the app needs: the PWA (dist/) and the app's server build that renders the first
 * screens (build/server), both made by `npm run build` (the server never builds: a production
 * install has no Vite).
 */
export const BUILD_OUTPUTS = ['dist/index.html', 'build/server/entry-server.js']

/** A server asked to serve the app without its build: the one line that says what to run. */
export class NotBuiltError extends Error {
  override readonly name = 'NotBuiltError'
}

export function checkBuilt(root = PROJECT_ROOT): void {
  const missing = BUILD_OUTPUTS.filter((file) => !existsSync(join(root, file)))
  if (missing.length > 0) {
    throw new NotBuiltError(`${missing.join(' and ')} missing: run \`npm run build\` first`)
  }
}

/** Opens the database, migrates, seeds an empty shop, and serves the app and /api/v1. */
export async function startServer(options: StartOptions = {}): Promise<RunningServer> {
  const source = {
    ...process.env,
    ...options.env,
    ...(options.dataDir ? { DATA_DIR: options.dataDir } : {}),
    ...(options.databaseUrl ? { DATABASE_URL: options.databaseUrl } : {}),
  }
  const env = parseEnv(source)
  const log = options.log ?? createLogger(env.LOG_LEVEL)
  const serveApp = options.serveApp ?? true
  if (serveApp) checkBuilt()

  const deps = await composeServer(env, {
    log,
    now: options.now ?? Date.now,
    ...(options.clock ? { clock: options.clock } : {}),
    childEnv: source,
    demoCatalogue: options.demoCatalogue !== false && wantsDemoCatalogue(env),
    distDir: serveApp ? DIST_DIR : null,
    // ffmpeg is found before anything is opened: a production shop without a maintained one stops here
    content: { ...options.content, video: composeVideo(env, log, options.content) },
    ...(options.pushAgent ? { pushAgent: options.pushAgent } : {}),
  })
  const { content, database, payment } = deps
  const app = createApp(deps)
  const hostname = options.hostname ?? env.HOST ?? options.defaultHostname ?? '127.0.0.1'
  const server = await new Promise<ReturnType<typeof serve>>((resolveServer, reject) => {
    const { idleTimeout, ...serverOptions } = { ...HTTP_TIMEOUTS, ...options.httpTimeouts }
    const s = serve(
      { fetch: app.fetch, port: options.port ?? env.PORT, hostname, serverOptions },
      () => resolveServer(s),
    )
    s.setTimeout(idleTimeout)
    s.once('error', reject)
  }).catch(async (error: unknown) => {
    // A port in use: what compose.ts opened is closed before the error is told.
    await content.close()
    await database.close()
    throw error
  })
  const port = (server.address() as AddressInfo).port
  const url = `http://${hostname === '0.0.0.0' ? '127.0.0.1' : hostname}:${port}`
  deps.setListeningOrigin(url)
  log.info('listening', {
    url,
    database: database.kind,
    payment: payment.name,
    appEnv: env.APP_ENV,
  })

  // The background jobs (compose.ts registers them; platform/scheduler.ts runs them): orders a crash
  // left Processing, reviews past their first slot, mails, content jobs, sweeps.
  deps.jobs.start()

  let closing: Promise<void> | null = null
  return {
    url,
    port,
    deps,
    routes: () => app.routes.map(({ method, path }) => ({ method, path })),
    contentWorkerPid: () => deps.contentWorkerPid(),
    close: () => {
      // Graceful shutdown: not ready from now on (the load balancer stops sending), no new
      // connections, no new jobs or orders claimed; the running job is stopped and handed back, the
      // orders being charged are finished and any lease left is handed back; requests still open
      // after SHUTDOWN_SECONDS (live-event streams) are cut.
      closing ??= (async () => {
        deps.readiness.shutDown()
        const cut = setTimeout(
          () => (server as unknown as { closeAllConnections?: () => void }).closeAllConnections?.(),
          env.SHUTDOWN_SECONDS * 1000,
        )
        cut.unref()
        const stopped = new Promise<void>((r) => {
          server.close(() => r())
          // Idle keep-alive connections would hold close() open.
          ;(server as unknown as { closeIdleConnections?: () => void }).closeIdleConnections?.()
        })
        // The jobs stop first (no new work claimed; each hands back what it holds, the orders being
        // charged finished), then what compose.ts started.
        await deps.jobs.stop()
        await content.close()
        await stopped
        clearTimeout(cut)
        await database.close()
      })()
      return closing
    },
  }
}

/**
 * SIGTERM or SIGINT stop the server gracefully and exit: 0 when all was handed back, 1 when
 * twice SHUTDOWN_SECONDS passed first (what still runs is abandoned: its leases end on their own and
 * another instance takes the work over).
 */
export function exitOnSignals(running: RunningServer): void {
  const stop = () => {
    // The log is written asynchronously (platform/log.ts): what is queued is written before exit.
    const exit = (code: number) => {
      running.deps.log.flush()
      process.exit(code)
    }
    setTimeout(() => exit(1), running.deps.env.SHUTDOWN_SECONDS * 2000).unref()
    running.close().then(
      () => exit(0),
      () => exit(1),
    )
  }
  process.once('SIGINT', stop)
  process.once('SIGTERM', stop)
}

const isEntry = process.argv[1] && pathToFileURL(resolve(process.argv[1])).href === import.meta.url
if (isEntry) {
  // --api-only serves /api/v1 alone (the app served elsewhere, and the scale test's instances).
  const running = await startServer({
    defaultHostname: '0.0.0.0',
    serveApp: !process.argv.includes('--api-only'),
  }).catch((error: unknown) => {
    if (!(error instanceof NotBuiltError)) throw error
    process.stderr.write(`${error.message}\n`)
    process.exit(1)
  })
  exitOnSignals(running)
}
