// Whether a stranger can tell by time which e-mails have an advertiser account: the answer times of
// password resets and sign-ups for e-mails with an account and without, asked in alternating pairs,
// as medians and spreads, with how often the known one was the slower of its pair (about half when
// nothing shows). The work that depends on the account is done after the answer
// (src/server/advertisers/accounts/requests.ts); tests/api/advertiser-accounts.test.ts holds that.
// Run: npm run bench:account-timing [-- --pairs 100]
import { mkdtemp, rm } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import path from 'node:path'
import { startServer } from '../../src/server/main.ts'
import { load, spread } from './stats.ts'

const argument = (name: string, fallback: number) => {
  const at = process.argv.indexOf(name)
  return at > 0 ? Number(process.argv[at + 1]) : fallback
}
const pairs = argument('--pairs', 100)
const PASSWORD = 'plum kayak vortex 1987 lantern'
// each e-mail may ask 10 times in 15 minutes: the shop's clock moves on a window every 8 asks
let offsetMs = 0

const dataDir = await mkdtemp(path.join(tmpdir(), 'shouts-bench-accounts-'))
const server = await startServer({
  port: 0,
  dataDir,
  serveApp: false,
  now: () => Date.now() + offsetMs,
  env: { LOG_LEVEL: 'error', WRITES_PER_MINUTE: '1000000' },
})
const api = `${server.url}/api/v1`

async function timed(pathname: string, body: unknown): Promise<number> {
  const started = performance.now()
  const res = await fetch(`${api}${pathname}`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify(body),
  })
  await res.arrayBuffer()
  if (res.status !== 202) throw new Error(`${pathname}: ${res.status}`)
  return performance.now() - started
}
const signUp = (email: string) =>
  timed('/advertisers/accounts', {
    email,
    password: PASSWORD,
    name: 'Léa',
    company: 'Brand',
    locale: 'en',
  })

let counter = 0
const unknown = () => `nobody-${++counter}@bench.example`
const known = 'known@bench.example'
await signUp(known)
await server.deps.jobs.runNow('advertiser-requests')

async function measure(
  label: string,
  ask: (email: string) => Promise<number>,
  count: number,
): Promise<void> {
  const ofKnown: number[] = []
  const ofUnknown: number[] = []
  let knownSlower = 0
  for (let i = 0; i < count; i++) {
    if (i % 8 === 0) offsetMs += 16 * 60_000
    // the order inside a pair alternates, so neither is always the first on a warm path
    const [k, u] =
      i % 2 === 0
        ? [await ask(known), await ask(unknown())]
        : await (async () => {
            const u = await ask(unknown())
            return [await ask(known), u] as const
          })()
    ofKnown.push(k)
    ofUnknown.push(u)
    if (k > u) knownSlower++
  }
  console.log(
    `${label}: known ${spread(ofKnown, 1)} ms, unknown ${spread(ofUnknown, 1)} ms; ` +
      `known slower in ${knownSlower} of ${count} pairs`,
  )
}

try {
  console.log(`load average ${load()}`)
  await measure('password reset', (email) => timed('/advertisers/password-reset', { email }), pairs)
  // a sign-up hashes its password whatever the e-mail (argon2id): fewer pairs
  await measure('sign-up', signUp, Math.max(10, Math.round(pairs / 5)))
  console.log(`load average ${load()}`)
} finally {
  await server.close()
  await rm(dataDir, { recursive: true, force: true })
}
