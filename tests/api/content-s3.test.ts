// Content in an S3-compatible bucket: the whole server runs with S3_* set against
// s3rver, an S3-compatible server started here on loopback (no Docker, no network). Photos, generated
// content and video clips go to the bucket, nothing to DATA_DIR/content/files, and /files serves them
// back with Range support.
import { existsSync } from 'node:fs'
import { mkdtemp, readdir, readFile, rm } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import path from 'node:path'
import { ListObjectsV2Command, S3Client } from '@aws-sdk/client-s3'
import sharp from 'sharp'
import { afterAll, beforeAll, expect, it } from 'vitest'
import { content as contentEndpoints } from '../../src/contract/index.ts'
import { startServer } from '../../src/server/main.ts'
import { makeTestVideo } from '../../src/server/video/test-videos.ts'
import {
  answerOf,
  client,
  LIVE,
  replyOf,
  requireFfmpeg,
  startTestServer,
  type TestServer,
  uploadedPhoto,
} from './helpers.ts'
import { type Bucket, startS3rver } from './s3rver.ts'

const BUCKET = 'shouts-content'
let s3: Bucket
let s3Dir: string
let endpoint: string
let server: TestServer
let base: string

const env = () => ({
  S3_BUCKET: BUCKET,
  S3_ENDPOINT: endpoint,
  S3_REGION: 'eu-west-1',
  S3_ACCESS_KEY_ID: 'S3RVER',
  S3_SECRET_ACCESS_KEY: 'S3RVER',
  S3_FORCE_PATH_STYLE: 'true',
  S3_PREFIX: 'content/',
})

beforeAll(async () => {
  s3Dir = await mkdtemp(path.join(tmpdir(), 'shouts-s3rver-'))
  s3 = await startS3rver(s3Dir, BUCKET)
  endpoint = s3.endpoint
  // The server reads the bucket's settings from its environment, as on a real deployment.
  server = await startTestServer('pglite', { env: env() })
  base = `${server.url}/api/v1/content`
})

afterAll(async () => {
  await server?.stop()
  await s3?.close()
  if (s3Dir) await rm(s3Dir, { recursive: true, force: true })
})

async function bucketKeys(): Promise<string[]> {
  const listing = await new S3Client({
    region: 'eu-west-1',
    endpoint,
    forcePathStyle: true,
    credentials: { accessKeyId: 'S3RVER', secretAccessKey: 'S3RVER' },
  }).send(new ListObjectsV2Command({ Bucket: BUCKET }))
  return (listing.Contents ?? []).map((object) => object.Key ?? '')
}

const fileName = (url: string) => url.slice(url.lastIndexOf('/') + 1)

/** An upload as the app reads it. */
const uploadOf = async (id: string) =>
  answerOf(contentEndpoints.uploadStatus, await replyOf(await fetch(`${base}/uploads/${id}`)))

it('stores uploads and generated content in the bucket and serves them back', async () => {
  const photoId = await uploadedPhoto(client(server.url))
  const upload = await uploadOf(photoId)
  const photoName = fileName(upload.url ?? '')
  expect(await bucketKeys()).toContain(`content/${photoName}`)

  const response = await fetch(`${base}/generate`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({
      contentGenerationRequest: {
        generatorId: 'hearts',
        deviceId: 'paris-opera-1',
        eventSlug: LIVE,
        uploadId: photoId,
        buyerName: 'Ana',
        recipientName: 'Mum',
        multilineMessage: 'Happy birthday!',
      },
      async: false,
    }),
  })
  const content = answerOf(contentEndpoints.generate, await replyOf(response)).generatedContent
  const contentName = fileName(content?.url ?? '')
  expect(await bucketKeys()).toEqual(
    expect.arrayContaining([`content/${photoName}`, `content/${contentName}`]),
  )
  // Nothing kept on the local disk: only the bucket holds files.
  expect(existsSync(path.join(server.dataDir, 'content', 'files'))).toBe(false)
  expect(await readdir(path.join(server.dataDir, 'content', 'tmp'))).toEqual([])

  const whole = await fetch(new URL(content?.url ?? '', base))
  expect(whole.headers.get('content-type')).toBe('image/png')
  const bytes = Buffer.from(await whole.arrayBuffer())
  const meta = await sharp(bytes).metadata()
  expect([meta.format, meta.width, meta.height]).toEqual([
    'png',
    content?.widthPx,
    content?.heightPx,
  ])
  const part = await fetch(new URL(content?.url ?? '', base), { headers: { range: 'bytes=0-7' } })
  expect(part.status).toBe(206)
  expect(part.headers.get('content-range')).toBe(`bytes 0-7/${bytes.length}`)
  expect(Buffer.from(await part.arrayBuffer())).toEqual(bytes.subarray(0, 8))
  expect((await fetch(`${base}/files/AAAAAAAAAAAAAAAAAAAAAA.png`)).status).toBe(404)
})

it('processes a video upload into the bucket', async () => {
  const clip = await makeTestVideo(requireFfmpeg(), path.join(server.dataDir, 'clip.mp4'), {
    seconds: 1,
  })
  const form = new FormData()
  form.append('file', new Blob([new Uint8Array(await readFile(clip))]), 'clip.mp4')
  const created = answerOf(
    contentEndpoints.upload,
    await replyOf(await fetch(`${base}/uploads`, { method: 'POST', body: form })),
  )
  let upload = created
  for (let poll = 0; poll < 400 && upload.status === 'processing'; poll++) {
    await new Promise((resolve) => setTimeout(resolve, 50))
    upload = await uploadOf(created.id)
  }
  expect(upload).toMatchObject({ status: 'ready', kind: 'video' })
  expect(await bucketKeys()).toContain(`content/${fileName(upload.url ?? '')}`)
  const video = await fetch(new URL(upload.url ?? '', base), { headers: { range: 'bytes=4-11' } })
  expect(video.status).toBe(206)
  // An mp4 starts with its ftyp box.
  expect(Buffer.from(await video.arrayBuffer()).toString('latin1')).toBe('ftypisom')
})

it('refuses to start with incomplete S3 settings, naming them', async () => {
  const start = (env: Record<string, string>) =>
    startServer({ serveApp: false, dataDir: server.dataDir, env })
  await expect(start({ S3_ENDPOINT: endpoint, S3_ACCESS_KEY_ID: 'x' })).rejects.toThrow(
    /S3_ENDPOINT, S3_ACCESS_KEY_ID set but S3_BUCKET is not/,
  )
  await expect(start({ S3_BUCKET: 'b', S3_ENDPOINT: 'not a url' })).rejects.toThrow(
    /S3_ENDPOINT must be a URL/,
  )
})
