import { execFileSync } from 'node:child_process'
import { mkdtempSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { defineConfig } from '@playwright/test'
import { chromiumArgs, findChromium } from './tests/setup/find-chromium'
import { keepTemporaryFilesInMemory } from './tests/setup/test-tmpdir'

keepTemporaryFilesInMemory()

// The e2e suite runs the production build served by the real server, on a fresh embedded database
// in a temporary DATA_DIR and a free port (conventions, habit 10): one server per worker, each on its
// own data directory and port, so that two spec files run side by side on the two cores. The runner
// chooses the ports and directories once; its workers inherit them and each reads its own by its
// parallel index (the same for a worker started again after a failure), as E2E_PORT and E2E_DATA_DIR
// (tests/e2e/ops-helpers.ts, pwa-helpers.ts).
function freePort(): number {
  const script =
    "const s=require('node:net').createServer();s.listen(0,'127.0.0.1',()=>{process.stdout.write(String(s.address().port));s.close()})"
  return Number(execFileSync(process.execPath, ['-e', script]).toString())
}
const WORKERS = Number(process.env.E2E_WORKERS ?? 2)
const servers = Array.from({ length: WORKERS }, (_, index) => {
  process.env[`E2E_PORT_${index}`] ??= String(freePort())
  process.env[`E2E_DATA_DIR_${index}`] ??= mkdtempSync(join(tmpdir(), 'shouts-e2e-'))
  return {
    port: Number(process.env[`E2E_PORT_${index}`]),
    dataDir: String(process.env[`E2E_DATA_DIR_${index}`]),
  }
})
const mine = servers[Number(process.env.TEST_PARALLEL_INDEX ?? 0)] ?? servers[0]
process.env.E2E_PORT = String(mine?.port)
process.env.E2E_DATA_DIR = mine?.dataDir
const baseURL = `http://127.0.0.1:${mine?.port}`

export default defineConfig({
  testDir: 'tests/e2e',
  outputDir: 'test-results',
  timeout: 90_000,
  expect: { timeout: 15_000 },
  fullyParallel: false,
  workers: WORKERS,
  retries: 0,
  reporter: [['list']],
  // The deploy builds the app again in place (dist/): it runs after every other spec.
  projects: [
    { name: 'shop', testIgnore: 'update.spec.ts' },
    { name: 'deploy', testMatch: 'update.spec.ts', dependencies: ['shop'] },
  ],
  use: {
    baseURL,
    viewport: { width: 390, height: 844 },
    isMobile: true,
    hasTouch: true,
    locale: 'en-US',
    timezoneId: 'UTC',
    trace: 'retain-on-failure',
    launchOptions: {
      executablePath: findChromium(),
      args: chromiumArgs,
      headless: true,
    },
  },
  // build the PWA, the app's server build and the server's bundle first, so the servers serve this
  // checkout's app as it is now (and render its first screens with it), run as production runs it
  // (E2E_PREBUILT: `npm test` has just built it; the first server builds, the others wait for it).
  // The console's e2e needs an operator made the way an operator is made, with the real
  // CLI; on the embedded database it runs while the server is stopped, so before the server starts.
  // Its last line (the one-time set-password link) goes to the DATA_DIR (tests/e2e/ops-helpers.ts).
  // A second admin is for the specs that only need one signed in (ops-orders.spec.ts).
  webServer: servers.map(({ port, dataDir }, index) => ({
    command: `${process.env.E2E_PREBUILT || index > 0 ? '' : 'npm run build && '}npm run --silent operator -- add e2e-admin@shouts.test --role admin > "$DATA_DIR/operator-admin.txt" && npm run --silent operator -- add e2e-orders@shouts.test --role admin > "$DATA_DIR/operator-orders.txt" && npm run --silent start:prod`,
    url: `http://127.0.0.1:${port}/api/v1/spotlight/live-events`,
    reuseExistingServer: false,
    timeout: 240_000,
    stdout: process.env.E2E_SERVER_LOG ? ('pipe' as const) : ('ignore' as const),
    stderr: 'ignore' as const,
    env: {
      // React, TanStack and Lingui run their production builds on the server, as in `npm start`
      NODE_ENV: 'production',
      PORT: String(port),
      DATA_DIR: dataDir,
      APP_ENV: 'local',
      // every spec's shopper shares 127.0.0.1: the per-client write limit is for one shopper
      WRITES_PER_MINUTE: '100000',
      // and its share of content jobs and upload bytes
      CONTENT_JOBS_PER_CLIENT: '1000',
      UPLOAD_BYTES_PER_CLIENT_HOUR: '100000000000',
      // The outbox e2e (ops-orders.spec.ts) waits for the mail planner; 15 s by default
      MAIL_POLL_SECONDS: '1',
    },
  })),
})
