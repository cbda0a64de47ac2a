import { spawn } from 'node:child_process'
import { writeFileSync } from 'node:fs'
import { connect } from 'node:net'
import { join } from 'node:path'
import sharp from 'sharp'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import type { ContentStorage } from '../../src/server/content/storage.ts'
import { processStartToken } from '../../src/server/platform/db/client.ts'
import { createLogger } from '../../src/server/platform/log.ts'
import { freshDataDir, startTestServer, type TestServer } from './helpers.ts'

// Slow clients, a full disk, a client that goes away mid-body, a stale lock file.

const diskFull = (syscall: string) =>
  Object.assign(new Error(`ENOSPC: no space left on device, ${syscall}`), {
    code: 'ENOSPC',
    errno: -28,
    syscall,
  })

/** Sends `text` on a raw connection and resolves when the server closes it (with what it sent). */
function rawConnection(
  url: string,
  text: string,
): { closed: Promise<string>; write(t: string): void } {
  const { hostname, port } = new URL(url)
  const socket = connect(Number(port), hostname)
  let received = ''
  socket.setEncoding('utf8')
  socket.on('data', (chunk: string) => {
    received += chunk
  })
  socket.write(text)
  return {
    closed: new Promise((resolve) => {
      socket.on('close', () => resolve(received))
      socket.on('error', () => undefined)
    }),
    write: (t) => {
      if (!socket.destroyed) socket.write(t)
    },
  }
}

describe('the server against slow and broken clients', () => {
  let server: TestServer
  const logs: string[] = []
  let full = false

  beforeAll(async () => {
    server = await startTestServer('pglite', {
      log: createLogger('info', {}, (line) => logs.push(line)),
      // short, so that the test sees them act; the real ones are HTTP_TIMEOUTS (main.ts)
      httpTimeouts: {
        headersTimeout: 1_000,
        requestTimeout: 2_000,
        connectionsCheckingInterval: 200,
      },
      content: {
        // the real storage, whose disk fills up on demand, as a real one would answer
        storage: (real: ContentStorage): ContentStorage => ({
          ...real,
          adopt: (from, name) =>
            full ? Promise.reject(diskFull('rename')) : real.adopt(from, name),
          write: (name, data) =>
            full ? Promise.reject(diskFull('write')) : real.write(name, data),
        }),
      },
    })
  })
  afterAll(async () => {
    await server?.stop()
  })

  it('closes a connection whose headers come one byte at a time (slowloris)', async () => {
    const slow = rawConnection(server.url, 'GET /api/v1/health HTTP/1.1\r\nHost: 127.0.0.1\r\n')
    const drip = setInterval(() => slow.write('X'), 300)
    try {
      const answer = await slow.closed
      // Node answers 408 before it closes, or just closes
      expect(answer === '' || answer.startsWith('HTTP/1.1 408')).toBe(true)
    } finally {
      clearInterval(drip)
    }
  })

  it('closes a request whose body trickles past the request timeout', async () => {
    const slow = rawConnection(
      server.url,
      'POST /api/v1/spotlight/slots/search HTTP/1.1\r\nHost: 127.0.0.1\r\ncontent-type: application/json\r\ncontent-length: 1000\r\n\r\n{',
    )
    const drip = setInterval(() => slow.write(' '), 300)
    try {
      await slow.closed
    } finally {
      clearInterval(drip)
    }
    expect(logs.filter((line) => line.includes('unhandled error'))).toEqual([])
  })

  it('a client leaving mid-body logs no unhandled error', async () => {
    for (const path of ['/api/v1/spotlight/slots/search', '/api/v1/order/orders']) {
      const { hostname, port } = new URL(server.url)
      const socket = connect(Number(port), hostname)
      socket.on('error', () => undefined)
      await new Promise<void>((resolve) => socket.on('connect', resolve))
      socket.write(
        `POST ${path} HTTP/1.1\r\nHost: 127.0.0.1\r\ncontent-type: application/json\r\nidempotency-key: gone\r\ncontent-length: 500\r\n\r\n{"deviceId": "par`,
      )
      await new Promise((resolve) => setTimeout(resolve, 100))
      socket.destroy()
    }
    // the server notices the reset and finishes the request; then the logs are read
    await new Promise((resolve) => setTimeout(resolve, 500))
    expect(logs.filter((line) => line.includes('unhandled error'))).toEqual([])
    expect((await fetch(`${server.url}/api/v1/health`)).status).toBe(200)
  })

  it('a full disk answers an upload 507 with a clear message, and logs it', async () => {
    const png = await sharp({
      create: { width: 64, height: 48, channels: 3, background: { r: 1, g: 2, b: 3 } },
    })
      .png()
      .toBuffer()
    const form = new FormData()
    form.append('file', new Blob([new Uint8Array(png)], { type: 'image/png' }), 'p.png')
    full = true
    try {
      const res = await fetch(`${server.url}/api/v1/content/uploads`, {
        method: 'POST',
        body: form,
      })
      expect(res.status).toBe(507)
      const body = (await res.json()) as { errors: string[]; codes: string[] }
      expect(body).toEqual({
        errors: [
          'The shop cannot store files right now (its storage is full). Please try again later.',
        ],
        codes: ['storage_full'],
      })
      expect(JSON.stringify(body)).not.toContain('ENOSPC')
      expect(logs.some((line) => line.includes('content storage is full'))).toBe(true)
    } finally {
      full = false
    }
  })
})

describe('the embedded database lock', () => {
  it('a stale lock naming a live, unrelated process does not block the start', async () => {
    const sleeper = spawn('sleep', ['60'], { stdio: 'ignore' })
    try {
      const pid = sleeper.pid as number
      for (const stale of [
        // the pid is alive but it is not the process that wrote the lock (another start token)
        `${pid} 1`,
        // the older form, a pid alone: a live process, but not node
        String(pid),
      ]) {
        const dataDir = await freshDataDir()
        writeFileSync(join(dataDir, 'pglite.lock'), stale)
        const server = await startTestServer('pglite', { dataDir })
        expect((await fetch(`${server.url}/api/v1/health`)).status).toBe(200)
        await server.stop()
      }
    } finally {
      sleeper.kill()
    }
  })

  it('a lock held by a live process with its own start token still blocks', async () => {
    const owner = spawn(process.execPath, ['-e', 'setTimeout(() => {}, 60000)'], {
      stdio: 'ignore',
    })
    try {
      const pid = owner.pid as number
      const token = processStartToken(pid)
      expect(token).not.toBeNull()
      const dataDir = await freshDataDir()
      writeFileSync(join(dataDir, 'pglite.lock'), `${pid} ${token}`)
      await expect(startTestServer('pglite', { dataDir })).rejects.toThrow(
        `is in use by process ${pid}`,
      )
    } finally {
      owner.kill()
    }
  })
})
