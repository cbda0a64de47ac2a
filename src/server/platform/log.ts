import pino from 'pino'

// Structured JSON logs, one object per line, each carrying the request id when there is one.
// Pino writes them, to an asynchronous destination on stdout: a line is queued and written
// by libuv's thread pool together with the lines queued meanwhile, so no request waits for a write(2)
// on the pipe (stdout on a pipe is synchronous on Linux; one line a request cost the trivial endpoint
// about a fifth of its throughput). What is still queued is written synchronously by flush() and at
// process exit, so the last lines before a shutdown are kept. A SIGKILL loses the few lines queued.
type Level = 'debug' | 'info' | 'warn' | 'error'

/** What the access log says of each request answered (app.ts), at level info. */
export type RequestLine = {
  requestId: string
  method: string
  /** The address without its origin; its secret parameters and segments are redacted here. */
  path: string
  status: number
  /** Milliseconds from the request's arrival to its answer's making. */
  ms: number
}

export type Logger = {
  debug(msg: string, fields?: Record<string, unknown>): void
  info(msg: string, fields?: Record<string, unknown>): void
  warn(msg: string, fields?: Record<string, unknown>): void
  error(msg: string, fields?: Record<string, unknown>): void
  /**
   * The access log's line of one request ("request" at info): the same line `info('request', line)`
   * writes, field for field, made by hand because every request writes one.
   */
  request(line: RequestLine): void
  child(fields: Record<string, unknown>): Logger
  /** Writes what is queued, synchronously (before exit). */
  flush(): void
}

// Secrets never reach a line (BRIEFING "Security"): a field named like a secret (a session cookie, an
// authorization header, a player token, a set-password link's token, a client secret), or a `headers`
// object's such entries, wherever a caller put them, is written as "[redacted]", and addresses (`url`,
// `path`) lose the values of secret-looking query parameters. This is done with pino's serializers,
// which pino looks up only for the keys a line has: its `redact` option walks and copies every logged
// object and cost the trivial endpoint's request line more than the rest of the log together.
const CENSOR = '[redacted]'
const SECRET_FIELDS = [
  'authorization',
  'cookie',
  'set-cookie',
  'token',
  'password',
  'secret',
  'clientSecret',
  'session',
] as const
const SECRET_HEADERS: ReadonlySet<string> = new Set(SECRET_FIELDS.map((f) => f.toLowerCase()))
const SECRET_QUERY = /([?&](?:[\w-]*token|password|secret|session|signature|key)=)[^&#]*/gi

/** A path segment that is a secret: the player token SMIL players PUT their play logs under. */
const SECRET_SEGMENT = /(\/play-logs\/)[^/?#]*/g

/** An address with the values of secret-looking query parameters and path segments replaced. */
export function redactAddress(address: unknown): unknown {
  if (typeof address !== 'string') return address
  const path = address.includes('/play-logs/')
    ? address.replace(SECRET_SEGMENT, `$1${CENSOR}`)
    : address
  return path.includes('?') ? path.replace(SECRET_QUERY, `$1${CENSOR}`) : path
}

/** A copy of a headers object (plain or Headers) without the secret ones' values. */
export function redactHeaders(headers: unknown): unknown {
  if (!headers || typeof headers !== 'object') return headers
  const entries =
    headers instanceof Headers ? [...headers.entries()] : Object.entries(headers as object)
  return Object.fromEntries(
    entries.map(([name, value]) => [name, SECRET_HEADERS.has(name.toLowerCase()) ? CENSOR : value]),
  )
}

/** A request-like object ({url, headers, ...}) with its secrets out. */
function redactRequest(request: unknown): unknown {
  if (!request || typeof request !== 'object') return request
  const { headers, url, path, ...rest } = request as Record<string, unknown>
  return {
    ...rest,
    ...(url !== undefined ? { url: redactAddress(url) } : {}),
    ...(path !== undefined ? { path: redactAddress(path) } : {}),
    ...(headers !== undefined ? { headers: redactHeaders(headers) } : {}),
  }
}

const SERIALIZERS: Record<string, pino.SerializerFn> = {
  error: pino.stdSerializers.err,
  err: pino.stdSerializers.err,
  url: redactAddress,
  path: redactAddress,
  headers: redactHeaders,
  req: redactRequest,
  request: redactRequest,
  ...Object.fromEntries(SECRET_FIELDS.map((name) => [name, () => CENSOR])),
}

// Lines are gathered up to 4 KB (about 20 request lines) per write, and written at least every 100 ms.
const BATCH_BYTES = 4096
const FLUSH_MS = 100
let stdout: ReturnType<typeof pino.destination> | null = null

/** One asynchronous stdout destination per process, flushed when the process exits. */
function stdoutDestination() {
  if (!stdout) {
    const destination = pino.destination({ dest: 1, sync: false, minLength: BATCH_BYTES })
    stdout = destination
    // A quiet server's lines wait at most FLUSH_MS (a busy one's are written by the 4 KB).
    setInterval(() => {
      try {
        destination.flush()
      } catch {
        // destroyed (the pipe closed): nothing more can be written
      }
    }, FLUSH_MS).unref()
    process.once('exit', () => flushQuietly(destination))
  }
  return stdout
}

// pino's isoTime makes a Date and its string for every line; within one second only the
// milliseconds change, so the rest is made once a second.
let second = Number.NaN
let secondText = ''

/** The line's `time` field for the instant `ms`, as pino's isoTime writes it. */
export function isoTimeField(ms: number): string {
  const s = Math.floor(ms / 1000)
  if (s !== second) {
    second = s
    secondText = new Date(s * 1000).toISOString().slice(0, -4) // up to the seconds' dot
  }
  const fraction = ms - s * 1000
  return `,"time":"${secondText}${fraction < 10 ? '00' : fraction < 100 ? '0' : ''}${fraction}Z"`
}

function flushQuietly(destination: { flushSync(): void }) {
  try {
    destination.flushSync()
  } catch {
    // not open yet, or the pipe is gone: nothing more can be written
  }
}

/**
 * `write`, when given, receives each line (without its newline) synchronously: the tests read the
 * lines. Without it, lines go to stdout asynchronously.
 */
export function createLogger(
  level: Level | 'silent' = 'info',
  base: Record<string, unknown> = {},
  write?: (line: string) => void,
): Logger {
  const destination = write
    ? { write: (line: string) => write(line.endsWith('\n') ? line.slice(0, -1) : line) }
    : level === 'silent'
      ? { write: () => {} }
      : stdoutDestination()
  const root = pino(
    {
      level,
      base,
      messageKey: 'msg',
      timestamp: () => isoTimeField(Date.now()),
      formatters: { level: (label) => ({ level: label }) },
      serializers: SERIALIZERS,
    },
    destination,
  )
  const flush = () => {
    if (!write && level !== 'silent' && stdout) flushQuietly(stdout)
  }
  const infoOn = root.isLevelEnabled('info')
  const wrap = (logger: pino.Logger): Logger => {
    // The line as pino writes it: level, time, the logger's bindings, the fields, the message.
    const bindings = (logger as unknown as Record<symbol, string>)[pino.symbols.chindingsSym] ?? ''
    return {
      debug: (msg, fields) => (fields ? logger.debug(fields, msg) : logger.debug(msg)),
      info: (msg, fields) => (fields ? logger.info(fields, msg) : logger.info(msg)),
      warn: (msg, fields) => (fields ? logger.warn(fields, msg) : logger.warn(msg)),
      error: (msg, fields) => (fields ? logger.error(fields, msg) : logger.error(msg)),
      request: (line) => {
        if (!infoOn) return
        destination.write(
          `{"level":"info"${isoTimeField(Date.now())}${bindings},"requestId":${JSON.stringify(line.requestId)},"method":${JSON.stringify(line.method)},"path":${JSON.stringify(redactAddress(line.path))},"status":${line.status},"ms":${line.ms},"msg":"request"}\n`,
        )
      },
      child: (fields) => wrap(logger.child(fields)),
      flush,
    }
  }
  return wrap(root)
}
