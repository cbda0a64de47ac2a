// Receiving an upload without ever holding it whole in memory ("streamed, never held whole in
// memory"): the multipart body is parsed as it arrives (@fastify/busboy, the maintained fork of busboy:
// strangers' bytes go through it), the first bytes decide the type, and the rest goes straight to a
// temporary file while the bytes are counted against that type's limit.
import { type FileHandle, open } from 'node:fs/promises'
import type { Readable } from 'node:stream'
import Busboy, { type BusboyInstance } from '@fastify/busboy'
import { problem } from '../../contract/problems.ts'
import {
  isStorageFull,
  largestUpload,
  type ReceivedUpload,
  type SniffedUpload,
  sniffUpload,
  storageFull,
  UploadError,
  type UploadIntake,
} from './processors.ts'
import { SNIFF_BYTES } from './sniff.ts'

/** The multipart field that carries the file (api-v1: "multipart, field `file`"). */
export const UPLOAD_FIELD = 'file'

/** spec §9: too large, saying the limit in whole MB. */
const tooLarge = (maxBytes: number) =>
  problem('upload_too_large', { mb: Math.floor(maxBytes / (1024 * 1024)) })
/** Room for the multipart boundaries and part headers around the file. */
const MULTIPART_OVERHEAD_BYTES = 64 * 1024
/** After a refusal, how much more of the body is read and thrown away so the client sees the answer. */
const DISCARD_AFTER_REFUSAL_BYTES = 64 * 1024 * 1024

function concat(chunks: Buffer[]): Buffer {
  return chunks.length === 1 && chunks[0] ? chunks[0] : Buffer.concat(chunks)
}

async function discardRest(reader: ReadableStreamDefaultReader<Uint8Array>): Promise<void> {
  // The answer (413/415) goes out at once; reading on lets an HTTP/1.1 client that is still sending
  // receive it instead of a reset connection. Past the cap the connection is left to the server to close.
  let discarded = 0
  try {
    while (discarded < DISCARD_AFTER_REFUSAL_BYTES) {
      const { done, value } = await reader.read()
      if (done) return
      discarded += value.byteLength
    }
    await reader.cancel()
  } catch {
    // The client went away: nothing left to read.
  }
}

/**
 * Streams the `file` field of a multipart request to a temporary file. Throws UploadError for a
 * request that is not a multipart upload with a file, a type no processor accepts, or a file past the
 * limit of the sniffed type.
 */
export async function receiveUpload(
  request: Request,
  { processors, storage }: UploadIntake,
): Promise<ReceivedUpload> {
  const contentType = request.headers.get('content-type') ?? ''
  if (!/^multipart\/form-data\s*;/i.test(contentType) || !request.body) {
    throw new UploadError({ code: 'upload_not_multipart' })
  }
  const largest = largestUpload(processors)
  const declared = Number(request.headers.get('content-length') ?? Number.NaN)
  if (Number.isFinite(declared) && declared > largest + MULTIPART_OVERHEAD_BYTES) {
    throw new UploadError(tooLarge(largest))
  }

  let parser: BusboyInstance
  try {
    parser = Busboy({
      headers: { 'content-type': contentType },
      limits: {
        files: 1,
        fileSize: largest + 1,
        fields: 10,
        fieldSize: 1024,
        parts: 20,
        headerPairs: 50,
      },
    })
  } catch (error) {
    throw new UploadError(problem('upload_multipart_invalid', { reason: (error as Error).message }))
  }

  const tempPath = storage.tempPath()
  let handle: FileHandle | null = null
  let fileSeen = false
  let failure: UploadError | null = null
  let result: ReceivedUpload | null = null

  // Settles on the first failure, so the feeding loop never waits for a drain that cannot come (the
  // file stream it would flow into is gone).
  let signalFailure = () => {}
  const failed = new Promise<void>((resolve) => {
    signalFailure = resolve
  })
  const fail = (error: unknown) => {
    failure ??=
      error instanceof UploadError
        ? error
        : isStorageFull(error)
          ? storageFull()
          : new UploadError(problem('upload_read_failed', { reason: (error as Error).message }))
    signalFailure()
  }

  const readFile = async (stream: Readable) => {
    const head: Buffer[] = []
    let headBytes = 0
    let sniffed: SniffedUpload | null = null
    let size = 0
    const decide = async () => {
      const first = concat(head)
      sniffed = sniffUpload(processors, first)
      if (!sniffed) throw new UploadError({ code: 'upload_wrong_type' })
      handle = await open(tempPath, 'wx')
      await handle.write(first)
    }
    for await (const chunk of stream as AsyncIterable<Buffer>) {
      if (failure) break
      size += chunk.length
      if (sniffed) {
        await (handle as FileHandle | null)?.write(chunk)
      } else {
        head.push(chunk)
        headBytes += chunk.length
        if (headBytes >= SNIFF_BYTES) await decide()
      }
      const limit = (sniffed as SniffedUpload | null)?.processor.maxBytes ?? largest
      if (size > limit) throw new UploadError(tooLarge(limit))
    }
    if (failure) return
    if (size === 0) throw new UploadError({ code: 'upload_empty' })
    if (!sniffed) await decide()
    const found = sniffed as SniffedUpload | null
    if (!found) throw new UploadError({ code: 'upload_wrong_type' })
    result = { ...found, tempPath, sizeBytes: size, fields }
  }

  const fields: Record<string, string> = {}
  parser.on('field', (name, value) => {
    if (!(name in fields)) fields[name] = value
  })
  const fileDone: Promise<void>[] = []
  parser.on('file', (name, stream) => {
    if (name !== UPLOAD_FIELD || fileSeen) {
      stream.resume()
      return
    }
    fileSeen = true
    fileDone.push(
      readFile(stream).catch((error: unknown) => {
        fail(error)
        stream.resume()
      }),
    )
  })
  // 'finish' comes once the closing boundary is read and every part has ended.
  const closed = new Promise<void>((resolve) => {
    parser.on('finish', resolve)
    parser.on('error', (error: unknown) => {
      fail(error)
      resolve()
    })
  })

  const reader = request.body.getReader()
  try {
    for (;;) {
      if (failure) break
      const { done, value } = await reader.read()
      if (done) break
      if (!parser.write(value)) {
        // A plain listener, not events.once: that one rejects on 'error', and nobody would await it.
        const drained = new Promise<void>((resolve) => parser.once('drain', resolve))
        await Promise.race([drained, closed, failed])
      }
    }
    if (!failure) {
      parser.end()
      await closed
    }
    await Promise.all(fileDone)
  } catch (error) {
    fail(error)
  } finally {
    await (handle as FileHandle | null)?.close().catch(() => undefined)
  }
  if (!failure && !fileSeen) fail(new UploadError({ code: 'upload_no_file' }))
  if (failure || !result) {
    void discardRest(reader)
    await storage.remove(tempPath).catch(() => undefined)
    throw failure ?? new UploadError({ code: 'upload_malformed' })
  }
  return result
}
