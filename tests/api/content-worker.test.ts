// The content worker (server memory): rendering and the nudity model run in a child process
// that starts on the first job and leaves when idle; a crashed worker fails only its own jobs.
import sharp from 'sharp'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { content } from '../../src/contract/content.ts'
import { createContentWorker } from '../../src/server/content/content-worker.ts'
import { parseOrThrow, RenderError, renderTemplatePng } from '../../src/server/content/render.ts'
import {
  imageModerationConfig,
  ModerationError,
  NSFW_CLASSES,
} from '../../src/server/moderation/index.ts'
import { parseEnv } from '../../src/server/platform/env.ts'
import { createLogger } from '../../src/server/platform/log.ts'
import {
  answerOf,
  client,
  generateContent,
  LIVE,
  startTestServer,
  type TestServer,
} from './helpers.ts'

function isRunning(pid: number): boolean {
  try {
    process.kill(pid, 0)
    return true
  } catch {
    return false
  }
}

async function until(check: () => boolean, ms = 10_000): Promise<void> {
  const deadline = Date.now() + ms
  while (!check()) {
    if (Date.now() > deadline) throw new Error('timed out')
    await new Promise((r) => setTimeout(r, 25))
  }
}

describe('content worker', () => {
  let server: TestServer
  let api: ReturnType<typeof client>

  beforeAll(async () => {
    server = await startTestServer('pglite', {
      env: { CONTENT_WORKER: 'process', CONTENT_WORKER_IDLE_SECONDS: '1' },
    })
    api = client(server.url)
  })
  afterAll(async () => {
    await server?.stop()
  })

  it('renders in a child process that exits when idle and comes back for the next job', async () => {
    expect(server.contentWorkerPid()).toBeNull()
    const first = await generateContent(api)
    const pid = server.contentWorkerPid()
    expect(pid).toEqual(expect.any(Number))
    expect(pid).not.toBe(process.pid)
    // The rendered picture is there to list.
    const entries = answerOf(content.entries, await api.get(`/content/${first.key}`))
    expect(entries.entries.length).toBeGreaterThan(0)

    await until(() => server.contentWorkerPid() === null)
    await until(() => !isRunning(pid as number))

    const second = await generateContent(api)
    expect(second.key).not.toBe(first.key)
    const next = server.contentWorkerPid()
    expect(next).toEqual(expect.any(Number))
    expect(next).not.toBe(pid)
  })

  it('answers a generation whose worker died with an error, and the next one succeeds', async () => {
    const { source } = await generateContent(api)
    await until(() => server.contentWorkerPid() === null)
    // A new worker starts for this job; it is killed long before it could have loaded the renderer.
    const pending = api.post('/content/generate', {
      contentGenerationRequest: source,
      async: false,
    })
    await until(() => server.contentWorkerPid() !== null)
    const pid = server.contentWorkerPid() as number
    process.kill(pid, 'SIGKILL')
    const res = answerOf(content.generate, await pending)
    expect(res).toMatchObject({ success: false, error: expect.any(String) })
    await until(() => !isRunning(pid))
    const again = await generateContent(api, 'paris-opera-1', LIVE)
    expect(again.key).toEqual(expect.any(String))
    expect(server.contentWorkerPid()).not.toBe(pid)
  })
})

describe('createContentWorker', () => {
  const log = createLogger('silent')
  const photo = () =>
    sharp({ create: { width: 64, height: 48, channels: 3, background: '#c2185b' } })
      .png()
      .toBuffer()

  it('judges a picture in the child with the same verdict shape, and a dead child is a ModerationError', async () => {
    const worker = createContentWorker({
      settings: { moderation: imageModerationConfig(parseEnv({})) },
      log,
      idleMs: 60_000,
      childEnv: process.env,
    })
    try {
      const image = await photo()
      const pending = worker.imageModerator?.moderateImage(image)
      process.kill(worker.pid() as number, 'SIGKILL')
      await expect(pending).rejects.toBeInstanceOf(ModerationError)
      const verdict = await worker.imageModerator?.moderateImage(image)
      expect(verdict).toMatchObject({ flagged: false, reasons: [] })
      expect(Object.keys(verdict?.scores ?? {}).sort()).toEqual([...NSFW_CLASSES].sort())
      // Bytes that are no picture: the child's ModerationError reaches the caller as one.
      await expect(
        worker.imageModerator?.moderateImage(new TextEncoder().encode('not an image')),
      ).rejects.toBeInstanceOf(ModerationError)
    } finally {
      await worker.close()
    }
    expect(worker.pid()).toBeNull()
  })

  it('renders the same PNG as the server process would', async () => {
    const worker = createContentWorker({
      settings: { moderation: null },
      log,
      idleMs: 60_000,
      childEnv: process.env,
    })
    try {
      const input = {
        template: parseOrThrow(
          '<div style="display:flex;width:100%;height:100%;background:#c2185b;color:white;font-size:48px">{{multilineMessage}}</div>',
        ),
        values: {
          buyerName: 'A',
          recipientName: 'B',
          multilineMessage: '<img src=x onerror=alert(1)>',
        },
        width: 320,
        height: 120,
        photo: null,
      }
      const [inChild, here] = await Promise.all([worker.render(input), renderTemplatePng(input)])
      expect(Buffer.isBuffer(inChild)).toBe(true)
      expect(await sharp(inChild).metadata()).toMatchObject({ width: 320, height: 120 })
      expect(inChild.equals(here)).toBe(true)
      await expect(
        worker.render({ ...input, width: 100_000, height: 100_000 }),
      ).rejects.toBeInstanceOf(RenderError)
    } finally {
      await worker.close()
    }
  })
})
