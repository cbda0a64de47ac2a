// Photos: every upload is decoded and re-encoded by sharp, so what is stored and shown is pixels the
// server wrote itself. EXIF orientation is applied to the pixels (.rotate()), then all metadata is
// dropped: sharp writes none unless asked, so a phone photo's GPS position never reaches a billboard
// ("all metadata stripped"). Decompression bombs stop at the header: limitInputPixels.
import { stat } from 'node:fs/promises'
import sharp from 'sharp'
import { problem } from '../../contract/problems.ts'
import { imageWork } from './limit.ts'
import {
  isStorageFull,
  type ProcessContext,
  type ProcessedFile,
  storageFull,
  UploadError,
  type UploadProcessor,
} from './processors.ts'
import { type ImageFormat, sniffImage } from './sniff.ts'

// libvips keeps up to 50 MB of recent operations for reuse; every shopper's photo is a different image,
// so the cache only adds to the server's memory (under 400 MB).
sharp.cache(false)

/** spec §9 image extensions; up to 15 MB. */
export const IMAGE_MAX_BYTES = 15 * 1024 * 1024
/**
 * Above what phones save by default (12-50 megapixels) and far below a decompression bomb. Applying the
 * EXIF rotation holds the decoded image in memory (3 bytes a pixel), so this also bounds an upload's
 * memory: 50 megapixels is at most 150 MB (and uploads are processed two at a time, see limit.ts).
 */
export const IMAGE_MAX_INPUT_PIXELS = 50_000_000
/** The stored photo's longer side at most: no billboard is larger, and rendering stays fast. */
export const IMAGE_MAX_SIDE_PX = 4096
/**
 * Bounds read from the header before any pixel is decoded. A 95 KB PNG of 1×49,000,000
 * pixels passed the megapixel check and held an image worker for 12-19 s (49,000,000×1: 380 MB). No
 * camera makes a side over 16,384 px or a picture longer than 20:1 (a phone's panorama is about 4:1).
 */
export const IMAGE_MAX_INPUT_SIDE_PX = 16_384
export const IMAGE_MAX_ASPECT_RATIO = 20
/** What a readable photo at the limits takes here is a few seconds; past this, libvips stops. */
const PROCESS_TIMEOUT_SECONDS = 20

const unreadable = () => new UploadError({ code: 'image_unreadable' })

/**
 * The picture's size from its header alone (no decoding): refused at once when a side, the aspect ratio
 * or the pixel count is past the limits, so a needle never reaches the image workers' queue.
 */
export async function checkImageHeader(inputPath: string): Promise<void> {
  let size: { width?: number | undefined; height?: number | undefined }
  try {
    size = await sharp(inputPath, { limitInputPixels: false }).metadata()
  } catch {
    throw unreadable()
  }
  const { width, height } = size
  if (!width || !height) throw unreadable()
  if (width > IMAGE_MAX_INPUT_SIDE_PX || height > IMAGE_MAX_INPUT_SIDE_PX) {
    throw new UploadError(
      problem('image_too_large', { maxSide: IMAGE_MAX_INPUT_SIDE_PX, width, height }),
    )
  }
  if (Math.max(width, height) > IMAGE_MAX_ASPECT_RATIO * Math.min(width, height)) {
    throw new UploadError(
      problem('image_wrong_shape', { ratio: IMAGE_MAX_ASPECT_RATIO, width, height }),
    )
  }
  if (width * height > IMAGE_MAX_INPUT_PIXELS) {
    const megapixels = IMAGE_MAX_INPUT_PIXELS / 1_000_000
    throw new UploadError(problem('image_too_many_pixels', { megapixels, width, height }))
  }
}

const OUTPUT: Record<ImageFormat, { extension: 'jpg' | 'png'; mimeType: string }> = {
  jpeg: { extension: 'jpg', mimeType: 'image/jpeg' },
  png: { extension: 'png', mimeType: 'image/png' },
  // A billboard shows a still: an animated GIF keeps its first frame, stored losslessly.
  gif: { extension: 'png', mimeType: 'image/png' },
}

function isImageFormat(format: string): format is ImageFormat {
  return format === 'jpeg' || format === 'png' || format === 'gif'
}

async function processImage({
  inputPath,
  format,
  storage,
}: ProcessContext): Promise<ProcessedFile> {
  if (!isImageFormat(format)) throw new UploadError({ code: 'upload_wrong_type' })
  const output = OUTPUT[format]
  const name = storage.newName(output.extension)
  // Made on the local disk, then moved into storage (a folder or a bucket).
  const target = storage.tempPath(output.extension)
  let encodedFile: { width: number; height: number; size: number }
  try {
    const pipeline = sharp(inputPath, {
      limitInputPixels: IMAGE_MAX_INPUT_PIXELS,
      failOn: 'error',
      sequentialRead: true,
    })
      .timeout({ seconds: PROCESS_TIMEOUT_SECONDS })
      .rotate()
      .resize({
        width: IMAGE_MAX_SIDE_PX,
        height: IMAGE_MAX_SIDE_PX,
        fit: 'inside',
        withoutEnlargement: true,
      })
    const encoded =
      output.extension === 'jpg'
        ? pipeline.jpeg({ quality: 88, chromaSubsampling: '4:2:0' })
        : pipeline.png({ compressionLevel: 6 })
    const info = await encoded.toFile(target)
    const { size } = await stat(target)
    encodedFile = { width: info.width, height: info.height, size }
  } catch (error) {
    await storage.remove(target).catch(() => undefined)
    if (isStorageFull(error)) throw storageFull()
    const text = error instanceof Error ? error.message : String(error)
    if (/pixel limit/i.test(text)) {
      throw new UploadError(
        problem('image_pixel_limit', { megapixels: IMAGE_MAX_INPUT_PIXELS / 1_000_000 }),
      )
    }
    throw unreadable()
  }
  try {
    await storage.adopt(target, name)
  } finally {
    await storage.remove(target).catch(() => undefined)
  }
  return {
    fileName: name,
    mimeType: output.mimeType,
    widthPx: encodedFile.width,
    heightPx: encodedFile.height,
    durationSeconds: null,
    sizeBytes: encodedFile.size,
  }
}

export const imageProcessor: UploadProcessor = {
  kind: 'photo',
  extensions: ['jpg', 'jpeg', 'gif', 'png'],
  maxBytes: IMAGE_MAX_BYTES,
  sniff: sniffImage,
  timing: 'inline',
  // The header is judged before the upload waits for an image worker.
  process: async (context) => {
    await checkImageHeader(context.inputPath)
    return imageWork(() => processImage(context))
  },
}
