// A PostgreSQL of a test's own, on a port of its own, to stop and start again (the shared one of
// TEST_DATABASE_URL serves every other suite and is never stopped). Made as .ci/run makes the shared
// one: Debian's initdb and pg_ctl, run as the user postgres when the tests run as root.
import { execFile as execFileCallback } from 'node:child_process'
import { chownSync, existsSync, mkdtempSync, rmSync } from 'node:fs'
import { createServer } from 'node:net'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { promisify } from 'node:util'

const execFile = promisify(execFileCallback)
const BIN = '/usr/lib/postgresql/15/bin'

export type Cluster = {
  url: string
  stop(): Promise<void>
  start(): Promise<void>
  remove(): Promise<void>
}

/** Whether this machine can make a cluster: PostgreSQL 15's programs are installed. */
export const canMakeCluster = existsSync(`${BIN}/initdb`) && existsSync(`${BIN}/pg_ctl`)

const freePort = () =>
  new Promise<number>((resolve, reject) => {
    const probe = createServer()
    probe.once('error', reject)
    probe.listen(0, '127.0.0.1', () => {
      const address = probe.address()
      probe.close(() => resolve(typeof address === 'object' && address ? address.port : 0))
    })
  })

export async function startCluster(): Promise<Cluster> {
  const dir = mkdtempSync(join(tmpdir(), 'shouts-pg-'))
  const data = join(dir, 'data')
  const asRoot = process.getuid?.() === 0
  if (asRoot) {
    const { stdout } = await execFile('id', ['-u', 'postgres'])
    const { stdout: gid } = await execFile('id', ['-g', 'postgres'])
    chownSync(dir, Number(stdout.trim()), Number(gid.trim()))
  }
  const run = (program: string, args: string[]) =>
    asRoot
      ? execFile('su', ['postgres', '-c', [`${BIN}/${program}`, ...args].map(quote).join(' ')])
      : execFile(`${BIN}/${program}`, args)
  await run('initdb', ['-D', data, '-A', 'trust', '-U', 'postgres'])
  const port = await freePort()
  const options = `-p ${port} -k ${dir} -c listen_addresses=127.0.0.1 -c fsync=off`
  const start = async () => {
    await run('pg_ctl', ['-D', data, '-o', options, '-l', join(dir, 'log'), '-w', 'start'])
  }
  const stop = async () => {
    await run('pg_ctl', ['-D', data, '-m', 'fast', '-w', 'stop'])
  }
  await start()
  return {
    url: `postgres://postgres@127.0.0.1:${port}/postgres`,
    start,
    stop,
    remove: async () => {
      await stop().catch(() => undefined)
      rmSync(dir, { recursive: true, force: true })
    },
  }
}

const quote = (word: string) => `'${word.replaceAll("'", `'\\''`)}'`
