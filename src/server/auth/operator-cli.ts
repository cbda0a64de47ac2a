import * as v from 'valibot'
import { OPERATOR_ROLES, type OperatorRole } from '../../domain/ops.ts'
import { EmailSchema } from '../../domain/validation.ts'
import { openDatabase } from '../platform/db/client.ts'
import { applyMigrations } from '../platform/db/migrate.ts'
import { parseEnv } from '../platform/env.ts'
import { createLogger } from '../platform/log.ts'
import { createRateLimiter } from '../platform/rate-limit.ts'
import { createAuthService } from './service.ts'

// `npm run operator -- add EMAIL --role admin|reviewer`: creates an operator and prints, as
// its last line, the one-time link where the person sets a password (24 h, usable once).
// `npm run operator -- --reset EMAIL` (or `add EMAIL --reset`) prints a new link for an existing
// operator; the older links stop working. The token is shown only here (the database keeps its
// SHA-256). It opens the database as `npm run import` does: on the embedded database it may run while
// the server runs (through the server's database thread, platform/db/pglite-guest.ts).

const USAGE =
  'usage: npm run operator -- add EMAIL --role admin|reviewer\n' +
  '       npm run operator -- --reset EMAIL\n'

type Command = { kind: 'add'; email: string; role: OperatorRole } | { kind: 'reset'; email: string }

function parseArgs(argv: readonly string[]): Command | null {
  let reset = false
  let role: string | undefined
  const words: string[] = []
  for (let i = 0; i < argv.length; i++) {
    const arg = argv[i] as string
    if (arg === '--reset') reset = true
    else if (arg === '--role') role = argv[++i]
    else if (arg.startsWith('--')) return null
    else words.push(arg)
  }
  const add = words[0] === 'add'
  const rest = add ? words.slice(1) : words
  const email = rest[0]
  if (!email || rest.length !== 1 || !v.is(EmailSchema, email)) return null
  if (reset) return role === undefined ? { kind: 'reset', email } : null
  if (!add || !role || !(OPERATOR_ROLES as readonly string[]).includes(role)) return null
  return { kind: 'add', email, role: role as OperatorRole }
}

async function main(argv: string[]): Promise<number> {
  const command = parseArgs(argv)
  if (!command) {
    process.stderr.write(USAGE)
    return 2
  }
  const env = parseEnv(process.env)
  const origin = (env.PUBLIC_BASE_URL ?? `http://localhost:${env.PORT}`).replace(/\/+$/, '')
  const database = await openDatabase({
    dataDir: env.DATA_DIR,
    databaseUrl: env.DATABASE_URL,
    guest: true,
  })
  try {
    await applyMigrations(database)
    const log = createLogger('warn')
    const auth = createAuthService({
      database,
      limiter: createRateLimiter({ database, now: Date.now }),
      log,
      now: Date.now,
    })
    const made =
      command.kind === 'add'
        ? await auth.addOperator(command.email, command.role)
        : await auth.resetLink(command.email)
    if (!made.ok) {
      process.stderr.write(
        made.error.code === 'operator_exists'
          ? `${command.email} is an operator already: use --reset for a new link\n`
          : `${command.email}: no such operator (add it first)\n`,
      )
      return 1
    }
    const { operator, token } = made.value
    process.stdout.write(
      command.kind === 'add'
        ? `Operator ${operator.email} (${operator.role}) added. Send them this link (valid 24 hours, usable once):\n`
        : `A new link for ${operator.email} (${operator.role}); earlier links stop working now. Valid 24 hours, usable once:\n`,
    )
    process.stdout.write(`${origin}/ops/set-password?token=${encodeURIComponent(token)}\n`)
    return 0
  } finally {
    await database.close()
  }
}

process.exitCode = await main(process.argv.slice(2))
