// Where the map's PMTiles archive is read from (the MAP_TILES setting, docs/maps.md): a file on the
// server's disk, an object of the S3 bucket, or an https URL. Whichever, the browser reads it from our
// server with Range requests (routes.ts), so the CSP names no map host and the bucket need not be public.
import { createReadStream } from 'node:fs'
import { stat } from 'node:fs/promises'
import path from 'node:path'
import { Readable } from 'node:stream'
import type { S3Client } from '@aws-sdk/client-s3'
import { newClient, type S3Config } from '../content/s3-storage.ts'
import { StorageUnavailable } from '../content/storage.ts'
import type { ByteRange } from '../platform/http/range.ts'

export type ArchiveFile = {
  size: number
  /** Changes when the archive is replaced (the pmtiles reader drops what it cached then). */
  etag: string
  open(range: ByteRange | null): Promise<Readable>
}

export type MapArchive = {
  readonly kind: 'file' | 's3' | 'url'
  /** The archive as it is now, or null when it is not there. */
  file(): Promise<ArchiveFile | null>
}

/** The archive a MAP_TILES value names; null when unset. */
export function mapArchive(
  setting: string | undefined,
  options: { dataDir: string; s3: S3Config | null; fetch?: typeof fetch },
): MapArchive | null {
  if (!setting) return null
  if (/^https?:\/\//i.test(setting)) return urlArchive(setting, options.fetch ?? fetch)
  if (setting.startsWith('s3:')) {
    // a setting that cannot work stops the start, as the environment's schema does
    if (!options.s3) throw new Error('MAP_TILES names an object of the S3 bucket: set S3_BUCKET')
    return s3Archive(options.s3, setting.slice(3).replace(/^\/+/, ''))
  }
  return fileArchive(path.resolve(options.dataDir, setting))
}

function fileArchive(file: string): MapArchive {
  return {
    kind: 'file',
    file: async () => {
      const info = await stat(file).catch((error: NodeJS.ErrnoException) => {
        if (error.code === 'ENOENT' || error.code === 'ENOTDIR') return null
        throw new StorageUnavailable(error)
      })
      if (!info?.isFile()) return null
      return {
        size: info.size,
        etag: `"${info.size.toString(36)}-${Math.round(info.mtimeMs).toString(36)}"`,
        open: async (range) => createReadStream(file, range ?? {}),
      }
    },
  }
}

function s3Archive(config: S3Config, objectKey: string): MapArchive {
  let loading: Promise<{ sdk: typeof import('@aws-sdk/client-s3'); client: S3Client }> | null = null
  const connect = () => {
    loading ??= import('@aws-sdk/client-s3').then((sdk) => ({
      sdk,
      client: newClient(sdk, config),
    }))
    return loading
  }
  const key = `${config.prefix}${objectKey}`
  return {
    kind: 's3',
    file: async () => {
      const { sdk, client } = await connect()
      const head = await client
        .send(new sdk.HeadObjectCommand({ Bucket: config.bucket, Key: key }))
        .catch((error: { name?: string; $metadata?: { httpStatusCode?: number } }) => {
          if (error?.name === 'NotFound' || error?.$metadata?.httpStatusCode === 404) return null
          throw new StorageUnavailable(error)
        })
      if (!head) return null
      return {
        size: head.ContentLength ?? 0,
        etag: head.ETag ?? `"${(head.ContentLength ?? 0).toString(36)}"`,
        open: async (range) => {
          const answer = await client.send(
            new sdk.GetObjectCommand({
              Bucket: config.bucket,
              Key: key,
              ...(range ? { Range: `bytes=${range.start}-${range.end}` } : {}),
            }),
          )
          const body = answer.Body
          return body instanceof Readable
            ? body
            : Readable.fromWeb(body as unknown as import('node:stream/web').ReadableStream)
        },
      }
    },
  }
}

/** How long the size of an archive at a URL is trusted before it is asked again. */
const URL_SIZE_MS = 60_000

function urlArchive(url: string, fetcher: typeof fetch): MapArchive {
  let known: { at: number; size: number; etag: string } | null = null
  const ask = async (init: RequestInit) => {
    try {
      return await fetcher(url, {
        ...init,
        redirect: 'follow',
        signal: AbortSignal.timeout(15_000),
      })
    } catch (error) {
      throw new StorageUnavailable(error)
    }
  }
  return {
    kind: 'url',
    file: async () => {
      if (!known || Date.now() - known.at > URL_SIZE_MS) {
        // the size from a one-byte range: some hosts answer HEAD without a length
        const answer = await ask({ headers: { range: 'bytes=0-0' } })
        await answer.body?.cancel()
        if (answer.status === 404 || answer.status === 410) return null
        const total = /\/(\d+)$/.exec(answer.headers.get('content-range') ?? '')?.[1]
        if (answer.status !== 206 || !total)
          throw new StorageUnavailable(`${url}: ${answer.status}`)
        const etag = answer.headers.get('etag') ?? `"${Number(total).toString(36)}"`
        known = { at: Date.now(), size: Number(total), etag }
      }
      const { size, etag } = known
      return {
        size,
        etag,
        open: async (range) => {
          const answer = await ask(
            range ? { headers: { range: `bytes=${range.start}-${range.end}` } } : {},
          )
          if (!answer.ok || !answer.body) {
            await answer.body?.cancel()
            throw new StorageUnavailable(`${url}: ${answer.status}`)
          }
          return Readable.fromWeb(answer.body as import('node:stream/web').ReadableStream)
        },
      }
    },
  }
}
