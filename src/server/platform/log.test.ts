import { describe, expect, it } from 'vitest'
import { createLogger, isoTimeField, redactAddress } from './log.ts'

// The log through pino; secrets (sessions, player tokens, one-time links) never in a line.
describe('the log', () => {
  const capture = (level: Parameters<typeof createLogger>[0] = 'info') => {
    const lines: string[] = []
    return { lines, log: createLogger(level, { service: 'shouts' }, (line) => lines.push(line)) }
  }

  it('writes one JSON object a line, with the level name, an ISO time, the base and the fields', () => {
    const { lines, log } = capture()
    log.debug('not at info')
    log.info('request', { requestId: 'r-1', status: 200 })
    log.child({ component: 'content' }).warn('slow', { ms: 12 })
    expect(lines).toHaveLength(2)
    const [first, second] = lines.map((l) => JSON.parse(l) as Record<string, unknown>)
    expect(first).toMatchObject({
      level: 'info',
      msg: 'request',
      service: 'shouts',
      requestId: 'r-1',
      status: 200,
    })
    expect(new Date(first?.time as string).toISOString()).toBe(first?.time)
    expect(second).toMatchObject({ level: 'warn', msg: 'slow', component: 'content', ms: 12 })
  })

  it("writes each request's access line as pino writes the same fields, its secrets redacted", () => {
    for (const level of ['info', 'debug'] as const) {
      const { lines, log } = capture(level)
      const line = {
        requestId: 'r-"1"',
        method: 'GET',
        path: '/api/v1/player/p-1/schedule?token=s3cr3t&lang="fr"',
        status: 404,
        ms: 0.3,
      }
      log.request(line)
      log.info('request', line)
      log.child({ component: 'shop' }).request(line)
      log.child({ component: 'shop' }).info('request', line)
      const [made, pinos, child, pinosChild] = lines.map((l) => l.replace(/"time":"[^"]+"/, ''))
      expect(made).toBe(pinos)
      expect(child).toBe(pinosChild)
      expect(lines.join('\n')).not.toContain('s3cr3t')
      expect(JSON.parse(lines[0] as string)).toMatchObject({ level: 'info', msg: 'request' })
    }
    const { lines, log } = capture('warn')
    log.request({ requestId: 'r', method: 'GET', path: '/', status: 200, ms: 1 })
    expect(lines).toEqual([])
  })

  it('writes the time to the millisecond, as an ISO date in UTC', () => {
    for (const ms of [
      0, 7, 1_764_331_200_042, 1_764_331_200_999, 1_764_331_201_000, 1_764_331_201_100,
    ]) {
      expect(JSON.parse(`{${isoTimeField(ms).slice(1)}}`)).toEqual({
        time: new Date(ms).toISOString(),
      })
    }
  })

  it('writes an error with its name, message and stack', () => {
    const { lines, log } = capture()
    log.error('unhandled error', { error: new TypeError('boom') })
    const entry = JSON.parse(lines[0] as string) as { error: Record<string, string> }
    expect(entry.error).toMatchObject({ type: 'TypeError', message: 'boom' })
    expect(entry.error.stack).toContain('TypeError: boom')
  })

  it('never writes cookies, authorization headers, tokens or secret query parameters', () => {
    const { lines, log } = capture()
    log.info('request', {
      headers: { cookie: 'ops_session=s3cr3t-cookie', authorization: 'Bearer s3cr3t-bearer' },
      path: '/ops/set-password?token=s3cr3t-link&lang=fr',
      url: 'http://127.0.0.1/api/v1/player/x/schedule?fromEpochMs=1&token=s3cr3t-player',
    })
    log.warn('sign-in', { token: 's3cr3t-field', password: 's3cr3t-password' })
    log.info('nested', { req: { headers: { cookie: 's3cr3t-nested' } } })
    const text = lines.join('\n')
    expect(text).not.toMatch(/s3cr3t/)
    expect(text).toContain('lang=fr')
    expect(text).toContain('fromEpochMs=1')
    expect(text.match(/\[redacted\]/g)?.length).toBe(7)
  })

  it('keeps addresses without secret parameters as they are', () => {
    expect(redactAddress('/api/v1/spotlight/events/x?device=a')).toBe(
      '/api/v1/spotlight/events/x?device=a',
    )
    expect(redactAddress('/x?player_token=abc&b=1')).toBe('/x?player_token=[redacted]&b=1')
  })

  it('hides the token SMIL players put in the play-log path', () => {
    expect(redactAddress('/api/v1/player/p-1/play-logs/s3cr3t/playlog-9.xml?token=t')).toBe(
      '/api/v1/player/p-1/play-logs/[redacted]/playlog-9.xml?token=[redacted]',
    )
  })
})
