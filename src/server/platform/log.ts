// Structured JSON logs, one object per line, each carrying the request id when there is one.
type Level = 'debug' | 'info' | 'warn' | 'error'
const order: Record<Level | 'silent', number> = {
  debug: 10,
  info: 20,
  warn: 30,
  error: 40,
  silent: 99,
}

export type Logger = {
  debug(msg: string, fields?: Record<string, unknown>): void
  info(msg: string, fields?: Record<string, unknown>): void
  warn(msg: string, fields?: Record<string, unknown>): void
  error(msg: string, fields?: Record<string, unknown>): void
  child(fields: Record<string, unknown>): Logger
}

export function createLogger(
  level: Level | 'silent' = 'info',
  base: Record<string, unknown> = {},
  write: (line: string) => void = (line) => process.stdout.write(`${line}\n`),
): Logger {
  const emit = (lvl: Level, msg: string, fields?: Record<string, unknown>) => {
    if (order[lvl] < order[level]) return
    const entry: Record<string, unknown> = {
      time: new Date().toISOString(),
      level: lvl,
      msg,
      ...base,
    }
    if (fields) {
      for (const [key, value] of Object.entries(fields)) {
        entry[key] =
          value instanceof Error
            ? { name: value.name, message: value.message, stack: value.stack }
            : value
      }
    }
    write(JSON.stringify(entry))
  }
  return {
    debug: (msg, fields) => emit('debug', msg, fields),
    info: (msg, fields) => emit('info', msg, fields),
    warn: (msg, fields) => emit('warn', msg, fields),
    error: (msg, fields) => emit('error', msg, fields),
    child: (fields) => createLogger(level, { ...base, ...fields }, write),
  }
}
