import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import path from 'node:path'
import sharp from 'sharp'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { parseEnv } from '../platform/env.ts'
import { videoTools } from './ffmpeg.ts'
import { probe } from './probe.ts'
import { containerMatches, sniffVideo, sniffVideoFile, type VideoFormat } from './sniff.ts'
import { makeTestVideo } from './test-videos.ts'

const tools = videoTools(parseEnv(process.env))
let dir = ''
const files: Partial<Record<VideoFormat, string>> = {}

beforeAll(async () => {
  dir = await mkdtemp(path.join(tmpdir(), 'shouts-sniff-'))
  await Promise.all(
    (['mp4', 'mpg', 'avi', 'wmv', 'wav'] as const).map(async (format) => {
      files[format] = await makeTestVideo(tools, path.join(dir, `clip.${format}`), {
        format,
        seconds: 1,
        audio: true,
      })
    }),
  )
})

afterAll(async () => {
  await rm(dir, { recursive: true, force: true })
})

function fileOf(format: VideoFormat): string {
  const file = files[format]
  if (!file) throw new Error(`no ${format} test file`)
  return file
}

describe('sniffVideo on real files made by ffmpeg', () => {
  it.each(['mp4', 'mpg', 'avi', 'wmv', 'wav'] as const)(
    'recognises %s from its bytes alone',
    async (format) => {
      const result = await sniffVideoFile(fileOf(format))
      expect(result).toMatchObject({ ok: true, format, audioOnly: format === 'wav' })
      if (!result.ok) return
      // ffprobe reads the container the bytes claim, with that container's demuxer.
      const info = await probe(tools, fileOf(format), { demuxer: result.demuxer })
      expect(containerMatches(format, info.formatName)).toBe(true)
    },
  )

  it('recognises an MPEG transport stream as mpg', async () => {
    const ts = await makeTestVideo(tools, path.join(dir, 'clip.ts'), {
      format: 'mpg',
      seconds: 1,
      extraArgs: ['-f', 'mpegts'],
    })
    expect(await sniffVideoFile(ts)).toMatchObject({ ok: true, format: 'mpg', demuxer: 'mpegts' })
    expect((await probe(tools, ts, { demuxer: 'mpegts' })).formatName).toBe('mpegts')
    // read as the container its bytes claim, never another: as an mp4 it is no video
    await expect(probe(tools, ts, { demuxer: 'mov' })).rejects.toThrow(/^Reading the video failed/)
  })

  it('ignores the name: an mp4 renamed .avi is still an mp4', async () => {
    const renamed = path.join(dir, 'really-mp4.avi')
    await writeFile(renamed, await readFile(fileOf('mp4')))
    expect(await sniffVideoFile(renamed)).toMatchObject({ ok: true, format: 'mp4' })
  })

  it('refuses images, text and garbage as unsupported, naming what they are', async () => {
    const png = await sharp({ create: { width: 8, height: 8, channels: 3, background: '#08f' } })
      .png()
      .toBuffer()
    expect(sniffVideo(png)).toEqual({
      ok: false,
      reason: 'unsupported',
      problem: { code: 'video_other_file', params: { other: 'png' } },
    })
    const avif = await sharp({ create: { width: 8, height: 8, channels: 3, background: '#08f' } })
      .avif()
      .toBuffer()
    // AVIF lives in the same ISO container as mp4 ('ftyp'), but it is a still picture.
    expect(sniffVideo(avif)).toMatchObject({ ok: false, reason: 'unsupported' })
    expect(sniffVideo(Buffer.from('hello, this is not a video'))).toMatchObject({
      ok: false,
      reason: 'unsupported',
    })
    expect(sniffVideo(new Uint8Array(0))).toMatchObject({ ok: false, reason: 'unsupported' })
  })
})

describe('sniffVideo refuses polyglots', () => {
  it('a GIF that is also an MPEG transport stream is refused, though it is a valid image', async () => {
    const gif = await sharp({ create: { width: 4, height: 4, channels: 3, background: '#f00' } })
      .gif()
      .toBuffer()
    // GIF starts with 'G' = 0x47, the MPEG-TS sync byte. Insert a GIF comment extension (0x21 0xFE,
    // sub-blocks of at most 255 bytes) right after the header so that every 188th byte is 0x47 too.
    const headerLength = 13 + 3 * 2 ** (((gif[10] ?? 0) & 0x07) + 1) // header + global colour table
    const comment: number[] = [0x21, 0xfe]
    for (let block = 0; block < 4; block++) {
      comment.push(200)
      for (let index = 0; index < 200; index++) {
        comment.push((headerLength + comment.length) % 188 === 0 ? 0x47 : 0x20)
      }
    }
    comment.push(0x00)
    const polyglot = Buffer.concat([
      gif.subarray(0, headerLength),
      Buffer.from(comment),
      gif.subarray(headerLength),
    ])
    expect(polyglot[188]).toBe(0x47)
    expect(polyglot[376]).toBe(0x47)
    expect(polyglot[564]).toBe(0x47)
    // Still a perfectly valid GIF for an image decoder...
    const decoded = await sharp(polyglot).metadata()
    expect(decoded).toMatchObject({ format: 'gif', width: 4, height: 4 })
    // ...and also shaped like a transport stream: refused.
    const result = sniffVideo(polyglot)
    expect(result).toMatchObject({ ok: false, reason: 'polyglot' })
    expect(result.ok ? null : result.problem.params?.other).toBe('gif')
  })

  it('a playable mp4 carrying HTML/script in its metadata is refused', async () => {
    const file = await makeTestVideo(tools, path.join(dir, 'scripted.mp4'), {
      seconds: 1,
      extraArgs: ['-metadata', 'title=<script>alert(document.cookie)</script>'],
    })
    expect((await probe(tools, file)).hasVideo).toBe(true)
    const result = await sniffVideoFile(file)
    expect(result).toMatchObject({ ok: false, reason: 'polyglot' })
    expect(result.ok ? null : result.problem).toEqual({
      code: 'upload_not_only_video',
      params: { format: 'mp4', other: 'markup' },
    })
  })

  it('a playable mp4 that also opens as a PDF (header in the first 1024 bytes) is refused', async () => {
    const bytes = await readFile(fileOf('mp4'))
    // x264 writes its settings as text in the first frame: overwrite some of it with a PDF header.
    const at = bytes.indexOf('Copyleft')
    expect(at).toBeGreaterThan(0)
    expect(at).toBeLessThan(1024)
    bytes.write('%PDF-1.7', at, 'latin1')
    const file = path.join(dir, 'pdf.mp4')
    await writeFile(file, bytes)
    expect((await probe(tools, file)).hasVideo).toBe(true)
    expect(await sniffVideoFile(file)).toMatchObject({ ok: false, reason: 'polyglot' })
  })

  it('an avi with a ZIP archive appended (GIFAR-style) is refused', async () => {
    const zipEnd = Buffer.from([0x50, 0x4b, 0x05, 0x06, ...new Array(18).fill(0)])
    const file = path.join(dir, 'zip.avi')
    await writeFile(file, Buffer.concat([await readFile(fileOf('avi')), zipEnd]))
    expect((await probe(tools, file, { demuxer: 'avi' })).hasVideo).toBe(true)
    const result = await sniffVideoFile(file)
    expect(result).toMatchObject({ ok: false, reason: 'polyglot' })
    expect(result.ok ? null : result.problem.params?.other).toBe('zip')
  })
})

describe('containerMatches', () => {
  it('compares the sniffed format with what ffprobe reads', () => {
    expect(containerMatches('mp4', 'mov,mp4,m4a,3gp,3g2,mj2')).toBe(true)
    expect(containerMatches('wmv', 'asf')).toBe(true)
    expect(containerMatches('avi', 'mov,mp4,m4a,3gp,3g2,mj2')).toBe(false)
  })
})
