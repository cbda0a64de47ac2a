import { execFileSync } from 'node:child_process'
import { mkdtempSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { defineConfig } from '@playwright/test'
import { chromiumArgs, findChromium } from './tests/setup/find-chromium'

// The e2e suite runs the production build served by the real server, on a fresh embedded database
// in a temporary DATA_DIR and a free port (conventions, habit 10). Workers inherit these values
// from the runner's environment, so every process agrees on them.
function freePort(): number {
  const script =
    "const s=require('node:net').createServer();s.listen(0,'127.0.0.1',()=>{process.stdout.write(String(s.address().port));s.close()})"
  return Number(execFileSync(process.execPath, ['-e', script]).toString())
}
process.env.E2E_PORT ??= String(freePort())
process.env.E2E_DATA_DIR ??= mkdtempSync(join(tmpdir(), 'shouts-e2e-'))
const port = Number(process.env.E2E_PORT)
const baseURL = `http://127.0.0.1:${port}`

export default defineConfig({
  testDir: 'tests/e2e',
  outputDir: 'test-results',
  timeout: 90_000,
  expect: { timeout: 15_000 },
  fullyParallel: false,
  workers: 1,
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
  webServer: {
    // build the PWA, the app's server build and the server's bundle first, so the server serves this
    // checkout's app as it is now (and renders its first screens with it), run as production runs it
    // The console's e2e needs an operator made the way an operator is made, with the real
    // CLI; on the embedded database it runs while the server is stopped, so before the server starts.
    // Its last line (the one-time set-password link) goes to the DATA_DIR (tests/e2e/ops-helpers.ts).
    // A second admin is for the specs that only need one signed in (ops-orders.spec.ts).
    // (E2E_PREBUILT: `npm test` has just built it)
    command: `${process.env.E2E_PREBUILT ? '' : 'npm run build && '}npm run --silent operator -- add e2e-admin@shouts.test --role admin > "$DATA_DIR/operator-admin.txt" && npm run --silent operator -- add e2e-orders@shouts.test --role admin > "$DATA_DIR/operator-orders.txt" && npm run --silent start:prod`,
    url: `${baseURL}/api/v1/spotlight/live-events`,
    reuseExistingServer: false,
    timeout: 240_000,
    stdout: process.env.E2E_SERVER_LOG ? 'pipe' : 'ignore',
    stderr: 'ignore',
    env: {
      // React, TanStack and Lingui run their production builds on the server, as in `npm start`
      NODE_ENV: 'production',
      PORT: String(port),
      DATA_DIR: process.env.E2E_DATA_DIR,
      APP_ENV: 'local',
      // every spec's shopper shares 127.0.0.1: the per-client write limit is for one shopper
      WRITES_PER_MINUTE: '100000',
      // and its share of content jobs and upload bytes
      CONTENT_JOBS_PER_CLIENT: '1000',
      UPLOAD_BYTES_PER_CLIENT_HOUR: '100000000000',
      // The outbox e2e (ops-orders.spec.ts) waits for the mail planner; 15 s by default
      MAIL_POLL_SECONDS: '1',
    },
  },
})
