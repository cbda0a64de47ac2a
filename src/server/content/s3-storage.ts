// Content in an S3-compatible bucket: chosen when S3_BUCKET is set. Raw uploads and
// work files stay on the local disk (DATA_DIR/content/tmp): sharp and ffmpeg read and write files, and a
// raw upload is never public. Finished files are put into the bucket under their server-made names;
// the server still serves them at /files/:name (the bucket need not be public, and Range requests pass
// through to it for video playback).
import { createReadStream, createWriteStream } from 'node:fs'
import { rm, stat } from 'node:fs/promises'
import { Readable } from 'node:stream'
import { pipeline } from 'node:stream/promises'
import type { S3Client } from '@aws-sdk/client-s3'
import type { Env } from '../platform/env.ts'
import {
  type ContentStorage,
  createTempFolder,
  isStoredName,
  newId,
  type StoredFile,
  storedType,
} from './storage.ts'

export type S3Config = {
  bucket: string
  endpoint?: string
  region: string
  credentials?: { accessKeyId: string; secretAccessKey: string }
  forcePathStyle: boolean
  prefix: string
}

/** The bucket settings of platform/env.ts (S3_*; the schema checks that they go together). */
export type S3Settings = Pick<
  Env,
  | 'S3_BUCKET'
  | 'S3_ENDPOINT'
  | 'S3_REGION'
  | 'S3_ACCESS_KEY_ID'
  | 'S3_SECRET_ACCESS_KEY'
  | 'S3_FORCE_PATH_STYLE'
  | 'S3_PREFIX'
>

/** The bucket configuration, or null without S3_BUCKET (content stays in DATA_DIR). */
export function s3Config(e: S3Settings): S3Config | null {
  if (!e.S3_BUCKET) return null
  return {
    bucket: e.S3_BUCKET,
    ...(e.S3_ENDPOINT ? { endpoint: e.S3_ENDPOINT } : {}),
    region: e.S3_REGION ?? 'us-east-1',
    ...(e.S3_ACCESS_KEY_ID && e.S3_SECRET_ACCESS_KEY
      ? {
          credentials: {
            accessKeyId: e.S3_ACCESS_KEY_ID,
            secretAccessKey: e.S3_SECRET_ACCESS_KEY,
          },
        }
      : {}),
    forcePathStyle: e.S3_FORCE_PATH_STYLE === 'true' || e.S3_FORCE_PATH_STYLE === '1',
    prefix: e.S3_PREFIX ?? '',
  }
}

function isNotFound(error: unknown): boolean {
  const e = error as { name?: string; $metadata?: { httpStatusCode?: number } }
  return e?.name === 'NotFound' || e?.name === 'NoSuchKey' || e?.$metadata?.httpStatusCode === 404
}

function toNodeStream(body: unknown): Readable {
  if (body instanceof Readable) return body
  // Outside Node the SDK answers a web stream.
  return Readable.fromWeb(body as import('node:stream/web').ReadableStream)
}

export function createS3Storage(dataDir: string, config: S3Config): ContentStorage {
  // The SDK (about 30 MB of memory) is loaded only on a server that stores in a bucket (server memory stays small).
  let loading: Promise<{ sdk: typeof import('@aws-sdk/client-s3'); client: S3Client }> | null = null
  const connect = () => {
    loading ??= import('@aws-sdk/client-s3').then((sdk) => ({
      sdk,
      client: newClient(sdk, config),
    }))
    return loading
  }
  const temp = createTempFolder(dataDir)
  const key = (name: string) => {
    if (!isStoredName(name)) throw new Error(`Not a stored file name: ${name}`)
    return `${config.prefix}${name}`
  }
  const put = async (name: string, body: Buffer | Readable, length: number) => {
    const { sdk, client } = await connect()
    await client.send(
      new sdk.PutObjectCommand({
        Bucket: config.bucket,
        Key: key(name),
        Body: body,
        ContentLength: length,
        ContentType: storedType(name) ?? 'application/octet-stream',
        // Names are random and files never change.
        CacheControl: 'public, max-age=31536000, immutable',
      }),
    )
  }
  const get = async (name: string, range?: { start: number; end: number }) => {
    const { sdk, client } = await connect()
    const answer = await client.send(
      new sdk.GetObjectCommand({
        Bucket: config.bucket,
        Key: key(name),
        ...(range ? { Range: `bytes=${range.start}-${range.end}` } : {}),
      }),
    )
    return toNodeStream(answer.Body)
  }
  return {
    kind: 's3',
    ...temp,
    newName: (extension) => `${newId()}.${extension}`,
    adopt: async (tempFile, name) => {
      const { size } = await stat(tempFile)
      await put(name, createReadStream(tempFile), size)
      await rm(tempFile, { force: true })
    },
    write: (name, data) => put(name, data, data.length),
    read: async (name) => {
      const chunks: Buffer[] = []
      for await (const chunk of await get(name)) chunks.push(chunk as Buffer)
      return Buffer.concat(chunks)
    },
    open: async (name): Promise<StoredFile | null> => {
      if (!isStoredName(name)) return null
      try {
        const { sdk, client } = await connect()
        const head = await client.send(
          new sdk.HeadObjectCommand({ Bucket: config.bucket, Key: key(name) }),
        )
        return { size: head.ContentLength ?? 0, stream: (range) => get(name, range) }
      } catch (error) {
        if (isNotFound(error)) return null
        throw error
      }
    },
    localFile: async (name) => {
      const local = temp.tempPath(name.slice(name.lastIndexOf('.') + 1))
      try {
        await pipeline(await get(name), createWriteStream(local, { flags: 'wx' }))
      } catch (error) {
        await rm(local, { force: true })
        throw error
      }
      return { path: local, release: () => rm(local, { force: true }) }
    },
    remove: async (fileOrName) => {
      if (!isStoredName(fileOrName)) return rm(fileOrName, { force: true })
      const { sdk, client } = await connect()
      await client.send(
        new sdk.DeleteObjectCommand({ Bucket: config.bucket, Key: key(fileOrName) }),
      )
    },
  }
}

export function newClient(sdk: typeof import('@aws-sdk/client-s3'), config: S3Config): S3Client {
  return new sdk.S3Client({
    region: config.region,
    forcePathStyle: config.forcePathStyle,
    // Checksums only where S3 requires them: the SDK's default (CRC32 in an aws-chunked body) is not
    // understood by every S3-compatible server and gets stored as part of the file there.
    requestChecksumCalculation: 'WHEN_REQUIRED',
    responseChecksumValidation: 'WHEN_REQUIRED',
    ...(config.endpoint ? { endpoint: config.endpoint } : {}),
    ...(config.credentials ? { credentials: config.credentials } : {}),
  })
}
