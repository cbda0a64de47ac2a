import { mkdirSync } from 'node:fs'
import { mkdtemp, rm } from 'node:fs/promises'
import { createServer, type Server } from 'node:http'
import { tmpdir } from 'node:os'
import path from 'node:path'
import { PutObjectCommand, S3Client } from '@aws-sdk/client-s3'
import { PbfReader } from 'pbf'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { parseRange } from '../../src/server/platform/http/range.ts'
import { BACKENDS, startTestServer, type TestServer } from './helpers.ts'
import { writeStreetArchive } from './map-archive.ts'
import { type Bucket, startS3rver } from './s3rver.ts'

// The map's parts served by the shop: the PMTiles archive named by MAP_TILES (a file under DATA_DIR,
// an object of the bucket, an http(s) URL) read with Range requests as MapLibre's pmtiles reader
// does, and the labels' glyphs made from the shop's font.

const OPERA: [number, number] = [2.3317, 48.872]
const writeArchive = (file: string) =>
  writeStreetArchive(file, OPERA, [
    {
      layer: 'roads',
      kind: 'major_road',
      name: 'Boulevard Haussmann',
      line: [
        [2.325, 48.873],
        [2.338, 48.8725],
      ],
    },
    { layer: 'places', kind: 'neighbourhood', name: 'Opéra', point: [2.3317, 48.8712] },
  ])

/** What the pmtiles reader asks first: the header and root directory, 16 KiB or the whole archive. */
async function readLikeMapLibre(base: string, archive: Uint8Array) {
  const header = await fetch(`${base}/api/v1/map/tiles.pmtiles`, {
    headers: { range: 'bytes=0-16383' },
  })
  expect(header.status).toBe(206)
  expect(header.headers.get('accept-ranges')).toBe('bytes')
  expect(header.headers.get('content-range')).toBe(
    `bytes 0-${archive.length - 1}/${archive.length}`,
  )
  expect(new Uint8Array(await header.arrayBuffer())).toEqual(archive)
  // a tile's bytes, somewhere in the middle
  const tile = await fetch(`${base}/api/v1/map/tiles.pmtiles`, {
    headers: { range: 'bytes=127-200' },
  })
  expect(tile.status).toBe(206)
  expect(new Uint8Array(await tile.arrayBuffer())).toEqual(archive.slice(127, 201))
  // past the end: 416 with the size
  const past = await fetch(`${base}/api/v1/map/tiles.pmtiles`, {
    headers: { range: `bytes=${archive.length}-` },
  })
  expect(past.status).toBe(416)
  expect(past.headers.get('content-range')).toBe(`bytes */${archive.length}`)
}

describe.each(BACKENDS)('the map on %s', (backend) => {
  let server: TestServer
  beforeAll(async () => {
    server = await startTestServer(backend, { env: { MAP_TILES: 'maps/city.pmtiles' } })
  })
  afterAll(async () => {
    await server?.stop()
  })

  it('has no street detail while the archive named is not there', async () => {
    const settings = await (await fetch(`${server.url}/api/v1/map`)).json()
    expect(settings).toEqual({
      tiles: null,
      glyphs: '/api/v1/map/glyphs/{fontstack}/{range}.pbf',
    })
    const missing = await fetch(`${server.url}/api/v1/map/tiles.pmtiles`)
    expect(missing.status).toBe(404)
    expect((await missing.json()).codes).toEqual(['file_not_found'])
  })

  it('serves an archive under DATA_DIR by ranges, as the map reads it', async () => {
    mkdirSync(path.join(server.dataDir, 'maps'), { recursive: true })
    const archive = writeArchive(path.join(server.dataDir, 'maps', 'city.pmtiles'))
    const settings = await (await fetch(`${server.url}/api/v1/map`)).json()
    expect(settings.tiles).toBe('/api/v1/map/tiles.pmtiles')
    await readLikeMapLibre(server.url, archive)
    const head = await fetch(`${server.url}/api/v1/map/tiles.pmtiles`, { method: 'HEAD' })
    expect(head.status).toBe(200)
    expect(head.headers.get('content-length')).toBe(String(archive.length))
    expect(head.headers.get('etag')).toMatch(/^".+"$/)
  })

  it('draws the labels with glyphs of its own font', async () => {
    const answer = await fetch(`${server.url}/api/v1/map/glyphs/Noto%20Sans%20Medium/0-255.pbf`)
    expect(answer.status).toBe(200)
    expect(answer.headers.get('content-type')).toBe('application/x-protobuf')
    expect(answer.headers.get('content-encoding')).toBe('gzip')
    const glyphs = readGlyphs(new Uint8Array(await answer.arrayBuffer()))
    expect(glyphs.fontstack).toBe('Noto Sans Medium')
    const a = glyphs.list.find((g) => g.id === 'A'.codePointAt(0))
    expect(a?.width).toBeGreaterThan(10)
    expect(a?.bitmap).toBe(((a?.width ?? 0) + 6) * ((a?.height ?? 0) + 6))
    // French and German letters too
    expect(glyphs.list.map((g) => g.id)).toEqual(
      expect.arrayContaining(['é', 'ç', 'ä', 'ß'].map((c) => c.codePointAt(0))),
    )
    const oe = readGlyphs(
      new Uint8Array(
        await (
          await fetch(`${server.url}/api/v1/map/glyphs/Noto%20Sans%20Regular/256-511.pbf`)
        ).arrayBuffer(),
      ),
    )
    expect(oe.list.map((g) => g.id)).toContain('œ'.codePointAt(0))
    const wrong = await fetch(`${server.url}/api/v1/map/glyphs/Noto%20Sans%20Regular/1-300.pbf`)
    expect(wrong.status).toBe(404)
  })
})

describe('an archive elsewhere', () => {
  let dir: string
  let archive: Uint8Array
  beforeAll(async () => {
    dir = await mkdtemp(path.join(tmpdir(), 'shouts-map-'))
    archive = writeArchive(path.join(dir, 'city.pmtiles'))
  })
  afterAll(async () => {
    await rm(dir, { recursive: true, force: true })
  })

  it('at an http(s) address is read through the shop, range by range', async () => {
    const host = await rangeHost(archive)
    const server = await startTestServer('pglite', {
      env: { MAP_TILES: `${host.url}/extracts/city.pmtiles` },
    })
    try {
      await readLikeMapLibre(server.url, archive)
      expect(host.ranges).toContain('bytes=127-200')
    } finally {
      await server.stop()
      await host.close()
    }
  })

  it('in the S3 bucket is read through the shop, range by range', async () => {
    const bucketDir = await mkdtemp(path.join(tmpdir(), 'shouts-s3rver-'))
    const bucket: Bucket = await startS3rver(bucketDir, 'shouts-map')
    const s3 = {
      S3_BUCKET: 'shouts-map',
      S3_ENDPOINT: bucket.endpoint,
      S3_REGION: 'eu-west-1',
      S3_ACCESS_KEY_ID: 'S3RVER',
      S3_SECRET_ACCESS_KEY: 'S3RVER',
      S3_FORCE_PATH_STYLE: 'true',
    }
    await new S3Client({
      region: 'eu-west-1',
      endpoint: bucket.endpoint,
      forcePathStyle: true,
      credentials: { accessKeyId: 'S3RVER', secretAccessKey: 'S3RVER' },
    }).send(new PutObjectCommand({ Bucket: 'shouts-map', Key: 'maps/city.pmtiles', Body: archive }))
    const server = await startTestServer('pglite', {
      env: { ...s3, MAP_TILES: 's3:maps/city.pmtiles' },
    })
    try {
      await readLikeMapLibre(server.url, archive)
    } finally {
      await server.stop()
      await bucket.close()
      await rm(bucketDir, { recursive: true, force: true })
    }
  })
})

it('reads one range of a Range header', () => {
  expect(parseRange('bytes=0-16383', 500)).toEqual({ start: 0, end: 499 })
  expect(parseRange('bytes=-10', 500)).toEqual({ start: 490, end: 499 })
  expect(parseRange('bytes=500-', 500)).toBe('unsatisfiable')
  expect(parseRange('bytes=0-1,4-5', 500)).toBeNull()
})

/** A host that serves one file with Range support, and remembers the ranges asked. */
async function rangeHost(file: Uint8Array) {
  const ranges: string[] = []
  const server: Server = createServer((req, res) => {
    const range = req.headers.range ?? ''
    ranges.push(range)
    const match = /^bytes=(\d+)-(\d+)$/.exec(range)
    if (!match) {
      res.writeHead(200, { 'content-length': file.length }).end(Buffer.from(file))
      return
    }
    const start = Number(match[1])
    const end = Math.min(Number(match[2]), file.length - 1)
    res
      .writeHead(206, {
        'content-range': `bytes ${start}-${end}/${file.length}`,
        'content-length': end - start + 1,
        etag: '"v1"',
      })
      .end(Buffer.from(file.slice(start, end + 1)))
  })
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
  const { port } = server.address() as { port: number }
  return {
    url: `http://127.0.0.1:${port}`,
    ranges,
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  }
}

/** The glyph format's fontstack: its name and each glyph's id, size and bitmap length. */
function readGlyphs(bytes: Uint8Array) {
  const out = {
    fontstack: '',
    list: [] as { id: number; width: number; height: number; bitmap: number }[],
  }
  const pbf = new PbfReader(bytes)
  pbf.readFields((tag, _, outer) => {
    if (tag !== 1) return
    outer.readMessage((field, __, stack) => {
      if (field === 1) out.fontstack = stack.readString()
      else if (field === 3) {
        const glyph = { id: 0, width: 0, height: 0, bitmap: 0 }
        stack.readMessage((key, ___, g) => {
          if (key === 1) glyph.id = g.readVarint()
          else if (key === 2) glyph.bitmap = g.readBytes().length
          else if (key === 3) glyph.width = g.readVarint()
          else if (key === 4) glyph.height = g.readVarint()
        }, glyph)
        out.list.push(glyph)
      }
    }, out)
  }, out)
  return out
}
