// Where content lives on disk: DATA_DIR/content/files holds only files the server made (re-encoded
// uploads, rendered billboards) under server-made random names; DATA_DIR/content/tmp holds raw uploads
// while they are checked. A shopper's file name never reaches the file system (issue 3: "stored under
// DATA_DIR with server-made names").
import { randomBytes } from 'node:crypto'
import { createReadStream, mkdirSync } from 'node:fs'
import { readdir, readFile, rename, rm, stat, writeFile } from 'node:fs/promises'
import path from 'node:path'

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

export function isStoredName(name: string): boolean {
  return NAME_PATTERN.test(name)
}

export function storedType(name: string): string | null {
  const extension = name.slice(name.lastIndexOf('.') + 1)
  return extension in STORED_TYPES ? STORED_TYPES[extension as StoredExtension] : null
}

export type ContentStorage = {
  /** A fresh path for a raw upload under tmp/. */
  tempPath(): string
  /** The path of a stored file; only server-made names are accepted. */
  filePath(name: string): string
  /** A new stored-file name with the extension given. */
  newName(extension: StoredExtension): string
  /** Moves a finished file (made under tmp/) into files/ under its name. */
  adopt(tempFile: string, name: string): Promise<void>
  write(name: string, data: Buffer): Promise<void>
  read(name: string): Promise<Buffer>
  open(name: string): Promise<{ size: number; stream: () => NodeJS.ReadableStream } | null>
  remove(fileOrName: string): Promise<void>
  /** Deletes raw uploads older than the age given (left by a crash mid-upload); answers how many. */
  sweepTemp(olderThanMs: number): Promise<number>
}

export function createContentStorage(dataDir: string): ContentStorage {
  const root = path.resolve(dataDir, 'content')
  const files = path.join(root, 'files')
  const tmp = path.join(root, 'tmp')
  mkdirSync(files, { recursive: true })
  mkdirSync(tmp, { recursive: true })
  const filePath = (name: string) => {
    if (!isStoredName(name)) throw new Error(`Not a stored file name: ${name}`)
    return path.join(files, name)
  }
  return {
    tempPath: () => path.join(tmp, `${newId()}.upload`),
    filePath,
    newName: (extension) => `${newId()}.${extension}`,
    adopt: (tempFile, name) => rename(tempFile, filePath(name)),
    write: (name, data) => writeFile(filePath(name), data, { flag: 'wx' }),
    read: (name) => readFile(filePath(name)),
    open: async (name) => {
      if (!isStoredName(name)) return null
      const file = filePath(name)
      const info = await stat(file).catch(() => null)
      if (!info?.isFile()) return null
      return { size: info.size, stream: () => createReadStream(file) }
    },
    remove: (fileOrName) =>
      rm(isStoredName(fileOrName) ? filePath(fileOrName) : fileOrName, { force: true }),
    sweepTemp: async (olderThanMs) => {
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
