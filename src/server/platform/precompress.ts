import { readdir, readFile, stat, writeFile } from 'node:fs/promises'
import { extname, join } from 'node:path'
import { promisify } from 'node:util'
import { brotliCompress, gzip, constants as zlib } from 'node:zlib'

// The build's text files are compressed once, at build time, at the highest settings
// (Brotli 11, gzip 9), into .br and .gz files beside them; the server sends those when the browser
// accepts them (./static.ts) and never compresses a file per request. Run by the client build
// (vite.config.ts, after the service worker is written); the tests use it for their own files.

/** The file types sent compressed: text. Images, fonts and media are compressed already. */
export const COMPRESSIBLE = new Set([
  '.html',
  '.js',
  '.mjs',
  '.css',
  '.json',
  '.webmanifest',
  '.svg',
  '.txt',
  '.map',
])

// Below this a compressed body saves less than the bytes of its headers.
const MIN_BYTES = 512

const brotli = promisify(brotliCompress)
const gzipAsync = promisify(gzip)

async function* files(dir: string): AsyncGenerator<string> {
  for (const entry of await readdir(dir, { withFileTypes: true })) {
    const path = join(dir, entry.name)
    if (entry.isDirectory()) yield* files(path)
    else if (entry.isFile()) yield path
  }
}

async function isFresh(sibling: string, sourceMtimeMs: number): Promise<boolean> {
  try {
    return (await stat(sibling)).mtimeMs >= sourceMtimeMs
  } catch {
    return false
  }
}

/** Writes name.br and name.gz beside every compressible file of `dir` (recursively) that lacks
 * fresh ones; returns how many files were compressed. A sibling that would not be smaller is not
 * written. */
export async function precompressDir(dir: string): Promise<number> {
  const jobs: Promise<void>[] = []
  let count = 0
  for await (const file of files(dir)) {
    if (!COMPRESSIBLE.has(extname(file).toLowerCase())) continue
    jobs.push(
      (async () => {
        const info = await stat(file)
        if (info.size < MIN_BYTES) return
        if (
          (await isFresh(`${file}.br`, info.mtimeMs)) &&
          (await isFresh(`${file}.gz`, info.mtimeMs))
        )
          return
        const raw = await readFile(file)
        const [br, gz] = await Promise.all([
          brotli(raw, {
            params: {
              [zlib.BROTLI_PARAM_QUALITY]: zlib.BROTLI_MAX_QUALITY,
              [zlib.BROTLI_PARAM_SIZE_HINT]: raw.length,
            },
          }),
          gzipAsync(raw, { level: 9 }),
        ])
        if (br.length < raw.length) await writeFile(`${file}.br`, br)
        if (gz.length < raw.length) await writeFile(`${file}.gz`, gz)
        count++
      })(),
    )
  }
  await Promise.all(jobs)
  return count
}
