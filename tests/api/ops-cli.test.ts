import { execFileSync } from 'node:child_process'
import { rmSync } from 'node:fs'
import { describe, expect, it } from 'vitest'
import { sql } from '../../src/server/platform/db/sql.ts'
import { createLogger } from '../../src/server/platform/log.ts'
import { PROJECT_ROOT } from '../../src/server/platform/paths.ts'
import { freshDataDir, startTestServer } from './helpers.ts'
import { clientWith, OPS_PASSWORD, sessionCookieOf } from './ops-helpers.ts'

// `npm run operator -- add EMAIL --role …` prints the one-time link as its last line; the
// link sets a password once, within 24 hours; `--reset` makes a new one and the older stops working.
// Nothing secret reaches the server's log (the token, the password, the session id).

const HOUR = 3_600_000

describe('npm run operator', () => {
  it('prints a link that works once, not after 24 hours, and not once replaced', async () => {
    const dataDir = await freshDataDir()
    const first = await startTestServer('pglite', { dataDir })
    await first.close() // the embedded database: operators are added with the server stopped
    const env = { ...process.env, DATA_DIR: dataDir, PORT: '4321', LOG_LEVEL: 'error' }
    delete (env as Record<string, string | undefined>).PUBLIC_BASE_URL
    delete (env as Record<string, string | undefined>).DATABASE_URL
    const run = (...args: string[]) =>
      new URL(
        execFileSync(
          process.execPath,
          ['--import', 'tsx', 'src/server/auth/operator-cli.ts', ...args],
          { cwd: PROJECT_ROOT, env, stdio: ['ignore', 'pipe', 'pipe'] },
        )
          .toString()
          .trim()
          .split('\n')
          .at(-1) as string,
      )
    const used = run('add', 'Ana@Shouts.example', '--role', 'admin')
    expect(used.origin).toBe('http://localhost:4321')
    expect(used.pathname).toBe('/ops/set-password')
    const late = run('add', 'late@shouts.example', '--role', 'reviewer')
    const replaced = run('add', 'reset@shouts.example', '--role', 'reviewer')
    const fresh = run('--reset', 'reset@shouts.example')
    expect(() => run('add', 'ana@shouts.example', '--role', 'admin')).toThrow()
    expect(() => run('add', 'bad@shouts.example', '--role', 'owner')).toThrow()

    const lines: string[] = []
    let shift = 0
    const server = await startTestServer('pglite', {
      dataDir,
      now: () => Date.now() + shift,
      log: createLogger('debug', {}, (line) => lines.push(line)),
    })
    try {
      const api = clientWith(server.url, { origin: server.url })
      const setPassword = (url: URL) =>
        api.post('/ops/set-password', {
          token: url.searchParams.get('token'),
          password: OPS_PASSWORD,
        })
      expect((await setPassword(used)).status).toBe(204)
      expect((await setPassword(used)).status).toBe(400)
      expect((await setPassword(replaced)).status).toBe(400)
      expect((await setPassword(fresh)).status).toBe(204)
      shift = 24 * HOUR + 60_000
      expect((await setPassword(late)).status).toBe(400)
      shift = 0

      const signIn = await api.post('/ops/session', {
        email: 'ana@shouts.example',
        password: OPS_PASSWORD,
      })
      expect(signIn.status).toBe(204)
      const cookie = sessionCookieOf(signIn.headers) as string
      const me = await clientWith(server.url, { cookie }).get('/ops/session')
      expect(me.body).toEqual({ email: 'Ana@Shouts.example', role: 'admin' })
      await clientWith(server.url, { origin: server.url, cookie }).call('DELETE', '/ops/session')

      // only hashes are stored
      const tokens = await server.deps.database.query(sql<{ hash: string }>`
        select token_hash as hash from operator_tokens`)
      expect(tokens.map((t) => t.hash)).not.toContain(used.searchParams.get('token'))

      const log = lines.join('\n')
      expect(log).toMatch(/"path":"\/api\/v1\/ops\/session"/)
      for (const secret of [
        used.searchParams.get('token') as string,
        fresh.searchParams.get('token') as string,
        OPS_PASSWORD,
        cookie.split('=')[1] as string,
      ]) {
        expect(log).not.toContain(secret)
      }
    } finally {
      await server.close()
      rmSync(dataDir, { recursive: true, force: true })
    }
    // six runs of the CLI, each a Node process opening the embedded database
  }, 240_000)
})
