// Where content lives. Stored files are only files the server made (re-encoded uploads, rendered
// billboards, transcoded clips) under server-made random names; a shopper's file name never reaches the
// file system or the bucket ("stored under DATA_DIR with server-made names").
//
// Two places: a folder, DATA_DIR/content/files, by default; or an S3-compatible
// bucket when S3_BUCKET is set (s3-storage.ts). Either way raw uploads and work files stay on the local
// disk under DATA_DIR/content/tmp, since sharp and ffmpeg work on files: a finished file is made there
// and then `adopt`ed into storage.
import { randomBytes } from 'node:crypto'
import { createReadStream, mkdirSync } from 'node:fs'
import { readdir, readFile, rename, rm, stat, writeFile } from 'node:fs/promises'
import path from 'node:path'
import type { Readable } from 'node:stream'

/** File extensions the server stores and the type each is served with. */
export const STORED_TYPES = {
  png: 'image/png',
  jpg: 'image/jpeg',
  gif: 'image/gif',
  mp4: 'video/mp4',
} as const
export type StoredExtension = keyof typeof STORED_TYPES

const NAME_PATTERN = /^[A-Za-z0-9_-]{22}\.(png|jpg|gif|mp4)$/

/** A random, unguessable identifier (128 bits, base64url). */
export function newId(): string {
  return randomBytes(16).toString('base64url')
}

/**
 * The still of a generated clip, stored beside it under the same id: its first frame as a JPEG
 * (content/video.ts). Derived from the clip's own name, so no column records it.
 */
export function stillOf(videoFileName: string): string {
  return `${videoFileName.replace(/\.mp4$/, '')}.jpg`
}

/**
 * The content's picture (E-mail: "the content image or its first frame"): a photo is one; a
 * clip's still is stored beside it, named after it, so its address is the clip's with the still's name
 * in place of the clip's. Null when the address does not end with the file's name.
 */
export function contentImageUrl(content: {
  url: string
  type: 'photo' | 'video'
  fileName: string
}): string | null {
  if (content.type === 'photo') return content.url
  if (!content.url.endsWith(content.fileName)) return null
  return `${content.url.slice(0, -content.fileName.length)}${stillOf(content.fileName)}`
}

export function isStoredName(name: string): boolean {
  return NAME_PATTERN.test(name)
}

export function storedType(name: string): string | null {
  const extension = name.slice(name.lastIndexOf('.') + 1)
  return extension in STORED_TYPES ? STORED_TYPES[extension as StoredExtension] : null
}

/** A byte range, both ends included (HTTP Range semantics). */
export type ByteRange = { start: number; end: number }

export type StoredFile = {
  size: number
  /** The file's bytes, or only the range given. */
  stream(range?: ByteRange): Promise<Readable>
}

/** A stored file as a path on the local disk, for ffmpeg; release() removes a downloaded copy. */
export type LocalFile = { path: string; release(): Promise<void> }

export type ContentStorage = {
  /** 'folder' (DATA_DIR/content/files) or 's3'. */
  readonly kind: 'folder' | 's3'
  /** A fresh path under tmp/ for a raw upload or a work file; the extension helps ffmpeg pick a muxer. */
  tempPath(extension?: string): string
  /** A new stored-file name with the extension given. */
  newName(extension: StoredExtension): string
  /** Moves a finished file (made under tmp/) into storage under its name. */
  adopt(tempFile: string, name: string): Promise<void>
  write(name: string, data: Buffer): Promise<void>
  read(name: string): Promise<Buffer>
  open(name: string): Promise<StoredFile | null>
  /** The stored file on the local disk (a download for a bucket). */
  localFile(name: string): Promise<LocalFile>
  /** Removes a stored file (by name) or a temporary file (by path). */
  remove(fileOrName: string): Promise<void>
  /** Deletes raw uploads older than the age given (left by a crash mid-upload); answers how many. */
  sweepTemp(olderThanMs: number): Promise<number>
}

/**
 * Content storage that does not answer or take a write for a while: the bucket unreachable or
 * answering 5xx, the disk failing. Not the request's fault nor the file's: the HTTP edge
 * answers 503 storage_unavailable with Retry-After, and a content job is tried again later
 * (job-queue.ts), never failed for it.
 */
export class StorageUnavailable extends Error {
  constructor(cause: unknown) {
    super('Content storage is unavailable', { cause })
    this.name = 'StorageUnavailable'
  }
}

/**
 * A file system's or a socket's words for "not now" (a missing file is not one of them; a full disk
 * is its own answer, 507 storage_full: processors.ts).
 */
const OUTAGE_CODES = new Set([
  'EIO',
  'EROFS',
  'ECONNREFUSED',
  'ECONNRESET',
  'ECONNABORTED',
  'ETIMEDOUT',
  'EPIPE',
  'EHOSTUNREACH',
  'ENETUNREACH',
  'ENOTFOUND',
  'EAI_AGAIN',
])

/** Whether an error of the folder or the bucket is an outage rather than a refusal or a bug. */
export function isStorageOutage(error: unknown): boolean {
  for (let e: unknown = error, depth = 0; e && depth < 4; depth++) {
    if (e instanceof StorageUnavailable) return true
    const { code, name, $metadata } = e as {
      code?: unknown
      name?: unknown
      $metadata?: { httpStatusCode?: number }
    }
    if (typeof code === 'string' && OUTAGE_CODES.has(code)) return true
    if (name === 'TimeoutError' || name === 'RequestTimeout') return true
    const status = $metadata?.httpStatusCode
    if (typeof status === 'number' && status >= 500) return true
    e = (e as { cause?: unknown }).cause
  }
  return false
}

const outages =
  <A extends unknown[], T>(fn: (...args: A) => Promise<T>) =>
  async (...args: A): Promise<T> => {
    try {
      return await fn(...args)
    } catch (error) {
      throw isStorageOutage(error) && !(error instanceof StorageUnavailable)
        ? new StorageUnavailable(error)
        : error
    }
  }

/** The storage with its outages thrown as StorageUnavailable, whichever kind it is. */
export function namingOutages(storage: ContentStorage): ContentStorage {
  return {
    ...storage,
    adopt: outages(storage.adopt),
    write: outages(storage.write),
    read: outages(storage.read),
    open: outages(async (name: string) => {
      const file = await storage.open(name)
      return file && { size: file.size, stream: outages(file.stream) }
    }),
    localFile: outages(storage.localFile),
    remove: outages(storage.remove),
  }
}

/** The local work folder both kinds of storage share: DATA_DIR/content/tmp. */
export function createTempFolder(dataDir: string) {
  const tmp = path.join(path.resolve(dataDir, 'content'), 'tmp')
  mkdirSync(tmp, { recursive: true })
  return {
    tempPath: (extension = 'upload') => path.join(tmp, `${newId()}.${extension}`),
    sweepTemp: async (olderThanMs: number) => {
      let removed = 0
      for (const entry of await readdir(tmp)) {
        const file = path.join(tmp, entry)
        const info = await stat(file).catch(() => null)
        if (info && Date.now() - info.mtimeMs > olderThanMs) {
          await rm(file, { force: true })
          removed++
        }
      }
      return removed
    },
  }
}

export function createContentStorage(dataDir: string): ContentStorage {
  const files = path.join(path.resolve(dataDir, 'content'), 'files')
  mkdirSync(files, { recursive: true })
  const temp = createTempFolder(dataDir)
  const filePath = (name: string) => {
    if (!isStoredName(name)) throw new Error(`Not a stored file name: ${name}`)
    return path.join(files, name)
  }
  return {
    kind: 'folder',
    ...temp,
    newName: (extension) => `${newId()}.${extension}`,
    adopt: (tempFile, name) => rename(tempFile, filePath(name)),
    write: (name, data) => writeFile(filePath(name), data, { flag: 'wx' }),
    read: (name) => readFile(filePath(name)),
    open: async (name) => {
      if (!isStoredName(name)) return null
      const file = filePath(name)
      const info = await stat(file).catch(() => null)
      if (!info?.isFile()) return null
      return {
        size: info.size,
        stream: async (range) =>
          createReadStream(file, range ? { start: range.start, end: range.end } : {}),
      }
    },
    localFile: async (name) => ({ path: filePath(name), release: async () => undefined }),
    remove: (fileOrName) =>
      rm(isStoredName(fileOrName) ? filePath(fileOrName) : fileOrName, { force: true }),
  }
}
