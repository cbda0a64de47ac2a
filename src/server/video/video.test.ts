import { execFileSync } from 'node:child_process'
import { mkdirSync, symlinkSync, writeFileSync } from 'node:fs'
import { mkdtemp, readdir, readFile, rm, writeFile } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import path from 'node:path'
import sharp from 'sharp'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { parseEnv } from '../platform/env.ts'
import { isInsideNodeModules, locateFfmpeg, VideoError, videoTools } from './ffmpeg.ts'
import {
  composite,
  extractFirstFrame,
  extractFrames,
  probe,
  processVideoUpload,
  transcode,
} from './index.ts'
import { makeTestVideo } from './test-videos.ts'

// ffmpeg as the server finds it: through the one settings schema, from this process's environment.
const tools = videoTools(parseEnv(process.env))
let dir = ''
let clip = '' // 3 s, 320x240, with sound

beforeAll(async () => {
  dir = await mkdtemp(path.join(tmpdir(), 'shouts-video-'))
  clip = await makeTestVideo(tools, path.join(dir, 'clip.mp4'), {
    seconds: 3,
    width: 320,
    height: 240,
    audio: true,
  })
})

afterAll(async () => {
  await rm(dir, { recursive: true, force: true })
})

/** Top-level MP4 box types in file order. */
async function topLevelBoxes(file: string): Promise<string[]> {
  const bytes = await readFile(file)
  const boxes: string[] = []
  for (let offset = 0; offset + 8 <= bytes.length; ) {
    const size = bytes.readUInt32BE(offset)
    boxes.push(bytes.toString('latin1', offset + 4, offset + 8))
    if (size < 8) break
    offset += size
  }
  return boxes
}

/** Writes a 90° display matrix into an MP4's track header, the way phones record portrait video. */
function rotate90(mp4: Buffer): Buffer {
  const out = Buffer.from(mp4)
  const tkhd = out.indexOf('tkhd') - 4 // box start
  if (tkhd < 0 || out[tkhd + 8] !== 0) throw new Error('expected a version 0 tkhd box')
  const matrix = tkhd + 48
  const values = [0, 0x10000, 0, -0x10000, 0, 0, 0, 0, 0x40000000]
  values.forEach((value, index) => {
    out.writeInt32BE(value, matrix + index * 4)
  })
  return out
}

/** The RGB colour at (x, y) of a PNG. */
async function pixel(png: Buffer, x: number, y: number): Promise<[number, number, number]> {
  const { data, info } = await sharp(png).removeAlpha().raw().toBuffer({ resolveWithObject: true })
  const at = (y * info.width + x) * 3
  return [data[at] ?? -1, data[at + 1] ?? -1, data[at + 2] ?? -1]
}

async function rejection(promise: Promise<unknown>): Promise<VideoError> {
  const error = await promise.then(
    () => null,
    (reason: unknown) => reason,
  )
  expect(error).toBeInstanceOf(VideoError)
  return error as VideoError
}

describe('locateFfmpeg', () => {
  it('finds the system ffmpeg and ffprobe', () => {
    const found = locateFfmpeg({ PATH: process.env.PATH })
    expect(path.basename(found.ffmpeg)).toBe('ffmpeg')
    expect(path.basename(found.ffprobe)).toBe('ffprobe')
  })

  it('without ffmpeg on PATH says to install the system package or set FFMPEG_PATH', () => {
    // never an npm package's static build, even where one is installed
    expect(() => locateFfmpeg({ PATH: dir })).toThrow(
      'install the system package (apt-get install ffmpeg on Debian and Ubuntu, brew install ffmpeg on macOS) or set FFMPEG_PATH and FFPROBE_PATH',
    )
  })

  it('tells a binary inside node_modules, links followed, from the system one', () => {
    const found = locateFfmpeg({ PATH: process.env.PATH })
    expect(isInsideNodeModules(found.ffmpeg)).toBe(false)
    const bundled = path.join(dir, 'node_modules', '@ffmpeg-installer', 'linux-x64')
    mkdirSync(bundled, { recursive: true })
    writeFileSync(path.join(bundled, 'ffmpeg'), '#!/bin/sh\n', { mode: 0o755 })
    symlinkSync(path.join(bundled, 'ffmpeg'), path.join(dir, 'linked-ffmpeg'))
    expect(isInsideNodeModules(path.join(bundled, 'ffmpeg'))).toBe(true)
    expect(isInsideNodeModules(path.join(dir, 'linked-ffmpeg'))).toBe(true)
  })

  it('refuses FFMPEG_PATH/FFPROBE_PATH that are not executables', () => {
    expect(() =>
      locateFfmpeg({ FFMPEG_PATH: path.join(dir, 'nope'), FFPROBE_PATH: path.join(dir, 'nope') }),
    ).toThrow(/is not an executable file/)
  })
})

describe('probe', () => {
  it('reads length, size, sound and codec', async () => {
    const info = await probe(tools, clip)
    expect(info.durationSeconds).toBeGreaterThan(2.9)
    expect(info.durationSeconds).toBeLessThan(3.2)
    expect(info).toMatchObject({
      width: 320,
      height: 240,
      hasVideo: true,
      hasAudio: true,
      codec: 'h264',
    })
  })

  it('reports the size as displayed when a phone recorded the video rotated', async () => {
    const rotated = path.join(dir, 'portrait.mp4')
    await writeFile(rotated, rotate90(await readFile(clip)))
    expect(await probe(tools, rotated)).toMatchObject({ width: 240, height: 320 })
    // ffmpeg turns the pictures upright while transcoding.
    const upright = await transcode(tools, {
      input: rotated,
      output: path.join(dir, 'upright.mp4'),
      maxLengthSeconds: 5,
    })
    expect(upright).toMatchObject({ width: 240, height: 320 })
  })

  it('rejects a corrupt file with a human message and no server path', async () => {
    const corrupt = path.join(dir, 'corrupt.mp4')
    const bytes = await readFile(clip)
    await writeFile(corrupt, Buffer.concat([bytes.subarray(0, 32), Buffer.alloc(4096, 0x5a)]))
    const error = await rejection(probe(tools, corrupt))
    expect(error.message).toMatch(/^Reading the video failed: /)
    expect(error.message).not.toContain(dir)
  })
})

describe('transcode', () => {
  it('makes a silent H.264 yuv420p MP4 with faststart, trimmed to the maximum length', async () => {
    const output = path.join(dir, 'trimmed.mp4')
    const result = await transcode(tools, { input: clip, output, maxLengthSeconds: 1.5 })
    expect(result).toMatchObject({
      codec: 'h264',
      pixelFormat: 'yuv420p',
      hasAudio: false,
      width: 320,
      height: 240,
    })
    expect(result.durationSeconds).toBeGreaterThan(1.4)
    expect(result.durationSeconds).toBeLessThan(1.6)
    expect(await probe(tools, output)).toEqual(result)
    // faststart: the index (moov) comes before the pictures (mdat), so playback starts before download ends.
    const boxes = await topLevelBoxes(output)
    expect(boxes.indexOf('moov')).toBeGreaterThan(-1)
    expect(boxes.indexOf('moov')).toBeLessThan(boxes.indexOf('mdat'))
  })

  it.each([
    ['avi', 'avi'],
    ['wmv', 'asf'],
    ['mpg', 'mpeg'],
  ] as const)('turns %s into H.264 MP4', async (format, demuxer) => {
    const input = await makeTestVideo(tools, path.join(dir, `in.${format}`), {
      format,
      seconds: 1,
      audio: true,
    })
    const result = await transcode(tools, {
      input,
      demuxer,
      output: path.join(dir, `from-${format}.mp4`),
      maxLengthSeconds: 10,
    })
    expect(result).toMatchObject({ codec: 'h264', hasAudio: false, width: 160, height: 120 })
  })

  it('scales and crops to exactly the billboard size', async () => {
    const result = await transcode(tools, {
      input: clip,
      output: path.join(dir, 'billboard.mp4'),
      maxLengthSeconds: 1,
      width: 280,
      height: 80,
    })
    expect(result).toMatchObject({ width: 280, height: 80 })
  })

  it('keeps odd-sized uploads playable by evening their sides', async () => {
    const odd = await makeTestVideo(tools, path.join(dir, 'odd.mp4'), {
      seconds: 1,
      width: 161,
      height: 121,
      // 4:4:4 allows odd sides; what comes out must be 4:2:0.
      extraArgs: ['-pix_fmt', 'yuv444p'],
    })
    const result = await transcode(tools, {
      input: odd,
      output: path.join(dir, 'even.mp4'),
      maxLengthSeconds: 5,
    })
    expect(result.width % 2).toBe(0)
    expect(result.height % 2).toBe(0)
    expect(result.pixelFormat).toBe('yuv420p')
  })

  it('rejects corrupt input, sound-only input and bad sizes with clear messages', async () => {
    const garbage = path.join(dir, 'garbage.avi')
    await writeFile(garbage, Buffer.alloc(10_000, 7))
    const corrupt = await rejection(
      transcode(tools, {
        input: garbage,
        demuxer: 'avi',
        output: path.join(dir, 'x.mp4'),
        maxLengthSeconds: 5,
      }),
    )
    expect(corrupt.message).toMatch(/^Reading the video failed: /)
    const wav = await makeTestVideo(tools, path.join(dir, 'tone.wav'), {
      format: 'wav',
      seconds: 1,
    })
    const silent = await rejection(
      transcode(tools, {
        input: wav,
        demuxer: 'wav',
        output: path.join(dir, 'y.mp4'),
        maxLengthSeconds: 5,
      }),
    )
    expect(silent.problem).toEqual({ code: 'video_no_pictures' })
    const odd = await rejection(
      transcode(tools, {
        input: clip,
        output: path.join(dir, 'z.mp4'),
        maxLengthSeconds: 5,
        width: 101,
        height: 80,
      }),
    )
    expect(odd.message).toBe(
      'The video width must be an even whole number of pixels (2–8192), not 101.',
    )
  })

  it('can be cancelled', async () => {
    const controller = new AbortController()
    const job = transcode(tools, {
      input: clip,
      output: path.join(dir, 'cancelled.mp4'),
      maxLengthSeconds: 3,
      signal: controller.signal,
    })
    controller.abort()
    expect((await rejection(job)).message).toBe('Reading the video was cancelled.')
  })

  it('takes its x264 preset from VIDEO_X264_PRESET, superfast by default', async () => {
    const preset = (value: string) => parseEnv({ VIDEO_X264_PRESET: value }).VIDEO_X264_PRESET
    expect(parseEnv({}).VIDEO_X264_PRESET).toBe('superfast')
    expect(preset(' ')).toBe('superfast')
    expect(preset('ultrafast')).toBe('ultrafast')
    expect(() => preset('warp')).toThrow(/VIDEO_X264_PRESET must be one of ultrafast, superfast/)
    const fast = await transcode(tools, {
      input: clip,
      output: path.join(dir, 'ultrafast.mp4'),
      maxLengthSeconds: 1,
      preset: 'ultrafast',
    })
    expect(fast.codec).toBe('h264')
    // x264 writes its settings into the stream; only ultrafast turns CABAC off.
    expect((await readFile(path.join(dir, 'ultrafast.mp4'))).includes('cabac=0')).toBe(true)
    const usual = path.join(dir, 'default-preset.mp4')
    await transcode(tools, { input: clip, output: usual, maxLengthSeconds: 1 })
    expect((await readFile(usual)).includes('cabac=1')).toBe(true)
  })

  it('stops at its timeout and leaves no partial file behind', async () => {
    const work = await mkdtemp(path.join(dir, 'timeout-'))
    const error = await rejection(
      transcode(tools, {
        input: clip,
        output: path.join(work, 'slow.mp4'),
        maxLengthSeconds: 3,
        timeoutMs: 1,
      }),
    )
    expect(error.message).toBe('Transcoding the video took longer than 1 ms and was stopped.')
    expect(await readdir(work)).toEqual([])
  })
})

describe('composite', () => {
  it('lays the rendered overlay over the clip cropped to the billboard size', async () => {
    const width = 200
    const height = 100
    // Opaque red on the left half, transparent on the right: the clip must show through on the right.
    const overlayPng = path.join(dir, 'overlay.png')
    await sharp({
      create: { width, height, channels: 4, background: { r: 0, g: 0, b: 0, alpha: 0 } },
    })
      .composite([
        {
          input: await sharp({ create: { width: 100, height, channels: 4, background: '#ff0000' } })
            .png()
            .toBuffer(),
          left: 0,
          top: 0,
        },
      ])
      .png()
      .toFile(overlayPng)
    const output = path.join(dir, 'composite.mp4')
    const result = await composite(tools, {
      videoPath: clip,
      overlayPngPath: overlayPng,
      width,
      height,
      output,
      maxLengthSeconds: 2,
    })
    expect(result).toMatchObject({
      width,
      height,
      codec: 'h264',
      pixelFormat: 'yuv420p',
      hasAudio: false,
    })
    expect(result.durationSeconds).toBeGreaterThan(1.9)
    expect(result.durationSeconds).toBeLessThan(2.1)

    const [frame] = await extractFrames(tools, output, 1)
    if (!frame) throw new Error('no frame')
    const [r, g, b] = await pixel(frame, 50, 50)
    expect(r).toBeGreaterThan(200)
    expect(g).toBeLessThan(60)
    expect(b).toBeLessThan(60)
    // The right half is the test pattern, not the overlay's red.
    const right = await Promise.all([
      pixel(frame, 120, 20),
      pixel(frame, 150, 50),
      pixel(frame, 180, 80),
    ])
    expect(right.some(([red, green, blue]) => red < 150 || green > 100 || blue > 100)).toBe(true)
  })

  it('refuses an overlay that is not the billboard size', async () => {
    const overlayPng = path.join(dir, 'small-overlay.png')
    await sharp({ create: { width: 50, height: 50, channels: 4, background: '#00ff0080' } })
      .png()
      .toFile(overlayPng)
    const error = await rejection(
      composite(tools, {
        videoPath: clip,
        overlayPngPath: overlayPng,
        width: 200,
        height: 100,
        output: path.join(dir, 'never.mp4'),
        maxLengthSeconds: 2,
      }),
    )
    expect(error.message).toBe('The rendered overlay is 50x50 but the billboard is 200x100.')
  })
})

describe('extractFrames', () => {
  it('samples PNG frames spread over the video', async () => {
    const frames = await extractFrames(tools, clip, 4)
    expect(frames).toHaveLength(4)
    for (const frame of frames) {
      expect(await sharp(frame).metadata()).toMatchObject({
        format: 'png',
        width: 320,
        height: 240,
      })
    }
    // testsrc moves: frames from different moments differ.
    expect(new Set(frames.map((frame) => frame.toString('base64'))).size).toBe(4)
  })

  it('takes the same moments whether it decodes once or seeks for each frame', async () => {
    const once = await extractFrames(tools, clip, 3)
    const seeking = await extractFrames(tools, clip, 3, { singlePassMaxSeconds: 0 })
    expect(seeking).toHaveLength(3)
    // testsrc draws a frame counter: equal moments give (nearly) equal pictures.
    for (const [index, frame] of once.entries()) {
      const a = await sharp(frame).raw().toBuffer()
      const b = await sharp(seeking[index]).raw().toBuffer()
      let different = 0
      for (let i = 0; i < a.length; i++) if (Math.abs((a[i] ?? 0) - (b[i] ?? 0)) > 24) different++
      expect(different / a.length).toBeLessThan(0.01)
    }
  })

  it('rejects a frame count out of range', async () => {
    expect((await rejection(extractFrames(tools, clip, 0))).message).toBe(
      'The number of frames must be a whole number from 1 to 64, not 0.',
    )
  })

  it('scales frames down for the model', async () => {
    const [frame] = await extractFrames(tools, clip, 1, { maxSidePx: 100 })
    expect(await sharp(frame).metadata()).toMatchObject({ width: 100, height: 75 })
  })
})

describe('extractFirstFrame', () => {
  it("gives the clip's first picture as a JPEG at the clip's size", async () => {
    // Red for a fifth of a second, then blue: only the first frame is red.
    const redThenBlue = path.join(dir, 'red-then-blue.mp4')
    // biome-ignore format: ffmpeg arguments read best as flag/value pairs
    execFileSync(tools.ffmpeg, [
      '-v', 'error', '-y',
      '-f', 'lavfi', '-i', 'color=c=red:s=352x200:r=25:d=0.2',
      '-f', 'lavfi', '-i', 'color=c=blue:s=352x200:r=25:d=1.8',
      '-filter_complex', '[0:v][1:v]concat=n=2:v=1[v]', '-map', '[v]',
      '-c:v', 'libx264', '-preset', 'ultrafast', '-pix_fmt', 'yuv420p', redThenBlue,
    ])
    const jpeg = await extractFirstFrame(tools, redThenBlue)
    expect(jpeg.subarray(0, 3)).toEqual(Buffer.from([0xff, 0xd8, 0xff]))
    expect(await sharp(jpeg).metadata()).toMatchObject({ format: 'jpeg', width: 352, height: 200 })
    const [r, g, b] = await pixel(jpeg, 176, 100)
    expect(r).toBeGreaterThan(200)
    expect(g).toBeLessThan(60)
    expect(b).toBeLessThan(60)
    // The middle of the clip is blue: the picture really is the start.
    const [middle] = await extractFrames(tools, redThenBlue, 1)
    expect((await pixel(middle as Buffer, 176, 100))[2]).toBeGreaterThan(200)
  })

  it('is smaller than the same frame as a PNG, and lower quality is smaller still', async () => {
    const [png] = await extractFrames(tools, clip, 1, { maxSidePx: 320 })
    const at80 = await extractFirstFrame(tools, clip)
    const at40 = await extractFirstFrame(tools, clip, { quality: 40 })
    expect(at80.length).toBeLessThan((png as Buffer).length)
    expect(at40.length).toBeLessThan(at80.length)
  })

  it('rejects a file without pictures with a message and no server path', async () => {
    const wav = await makeTestVideo(tools, path.join(dir, 'tone.wav'), { format: 'wav' })
    const error = await rejection(extractFirstFrame(tools, wav))
    expect(error.message).toMatch(/^Taking the first frame of the video/)
    expect(error.message).not.toContain(dir)
  })
})

describe('processVideoUpload', () => {
  it('turns a wmv upload into a trimmed clip at the billboard size with frames for moderation', async () => {
    const input = await makeTestVideo(tools, path.join(dir, 'upload.wmv'), {
      format: 'wmv',
      seconds: 3,
      audio: true,
    })
    const result = await processVideoUpload(tools, {
      input,
      output: path.join(dir, 'upload-ready.mp4'),
      maxLengthSeconds: 2,
      width: 200,
      height: 100,
      frameCount: 3,
    })
    expect(result.format).toBe('wmv')
    expect(result.trimmed).toBe(true)
    expect(result.video).toMatchObject({ width: 200, height: 100, codec: 'h264', hasAudio: false })
    expect(result.video.durationSeconds).toBeLessThan(2.1)
    expect(result.frames).toHaveLength(3)
  })

  it('does not call a short upload trimmed', async () => {
    const result = await processVideoUpload(tools, {
      input: clip,
      output: path.join(dir, 'short.mp4'),
      maxLengthSeconds: 10,
    })
    expect(result.trimmed).toBe(false)
  })

  it('refuses a wav and a disguised image', async () => {
    const wav = await makeTestVideo(tools, path.join(dir, 'song.wav'), {
      format: 'wav',
      seconds: 1,
    })
    const sound = await rejection(
      processVideoUpload(tools, {
        input: wav,
        output: path.join(dir, 'a.mp4'),
        maxLengthSeconds: 5,
      }),
    )
    expect(sound.problem).toEqual({ code: 'video_sound_only' })
    const png = path.join(dir, 'photo.mp4')
    await sharp({ create: { width: 8, height: 8, channels: 3, background: '#123' } })
      .png()
      .toFile(png)
    const image = await rejection(
      processVideoUpload(tools, {
        input: png,
        output: path.join(dir, 'b.mp4'),
        maxLengthSeconds: 5,
      }),
    )
    expect(image.problem).toEqual({ code: 'video_other_file', params: { other: 'png' } })
  })
})
