import { stat } from 'node:fs/promises'
import { join } from 'node:path'
import type { Readable } from 'node:stream'
import type { ContentEntry } from '../../contract/index.ts'
import { templateById } from '../catalogue/reads.ts'
import type { Database } from '../platform/db/client.ts'
import type { Logger } from '../platform/log.ts'
import { err, ok, type Result } from '../platform/result.ts'
import type { VideoTools } from '../video/index.ts'
import type { ContentError } from './errors.ts'
import { templatePreview, templatePreviewVideo } from './previews.ts'
import type { PngRenderer } from './render.ts'
import { generatedByKey } from './repo.ts'
import {
  type ByteRange,
  type ContentStorage,
  isStoredName,
  stillOf,
  storedType,
} from './storage.ts'

// What the content module serves to read: the stored files (GET /content/files/{name}), the template
// previews (GET /content/previews/{file}) and the entries of generated content by key (spec §7
// call 5). The routes send the bytes (with Range support).

/** Why a template's preview is not sent (no ffmpeg: no example clip to make). */
type PreviewError = ContentError<
  | 'template_not_found'
  | 'template_no_example_clip'
  | 'content_type_unavailable'
  | 'template_render_failed'
>

/** A stored file to send: its type, its size, and its bytes (or one range of them). */
export type FileToSend = {
  type: string
  size: number
  open(range: ByteRange | null): Promise<Readable>
}

export type Preview =
  | { kind: 'png'; templateId: string; png: Buffer }
  | { kind: 'mp4'; templateId: string; path: string; size: number }

export function createContentFiles(deps: {
  database: Database
  log: Logger
  storage: ContentStorage
  /** DATA_DIR: template preview clips are kept in DATA_DIR/content/previews. */
  dataDir: string
  fileUrl: (name: string) => string
  render: PngRenderer
  video: VideoTools | null
}) {
  const { database: db, log, storage, render, video } = deps
  const previewFolder = join(deps.dataDir, 'content', 'previews')

  /** A stored file: only server-made names (storage.ts). */
  async function file(name: string): Promise<Result<FileToSend, ContentError<'file_not_found'>>> {
    const type = storedType(name)
    const found = isStoredName(name) && type ? await storage.open(name) : null
    if (!found || !type) return err({ code: 'file_not_found' })
    return ok({ type, size: found.size, open: (range) => found.stream(range ?? undefined) })
  }

  /**
   * A picture of a template with sample texts and photo (previews.ts), `{templateId}.png`; a video
   * template's example clip is `{templateId}.mp4`.
   */
  async function preview(fileName: string): Promise<Result<Preview, PreviewError>> {
    const match = /^(.+)\.(png|mp4)$/.exec(fileName)
    const template = match?.[1] ? await templateById(db, match[1]) : null
    if (!template) return err({ code: 'template_not_found' })
    if (match?.[2] === 'mp4') {
      if (!template.types.includes('video')) return err({ code: 'template_no_example_clip' })
      if (!video) return err({ code: 'content_type_unavailable', contentType: 'video' })
      let path: string
      try {
        path = await templatePreviewVideo(template, previewFolder, video, render)
      } catch (error) {
        log.warn('template preview clip failed', { templateId: template.id, error })
        return err({ code: 'template_render_failed' })
      }
      const { size } = await stat(path)
      return ok({ kind: 'mp4', templateId: template.id, path, size })
    }
    try {
      return ok({
        kind: 'png',
        templateId: template.id,
        png: await templatePreview(template, render),
      })
    } catch (error) {
      log.warn('template preview failed', { templateId: template.id, error })
      return err({ code: 'template_render_failed' })
    }
  }

  // spec §7 call 5: the entries of generated content, by the key an order names.
  async function entries(
    key: string,
  ): Promise<Result<{ entries: ContentEntry[] }, ContentError<'content_not_found'>>> {
    const row = await generatedByKey(db, key)
    if (!row) return err({ code: 'content_not_found' })
    const list: ContentEntry[] = [
      {
        url: row.url,
        type: row.type,
        widthPx: row.widthPx,
        heightPx: row.heightPx,
        durationSeconds: row.durationSeconds,
        flagged: row.flagged,
      },
    ]
    // A clip's still (its first frame), stored beside it under the same id (video.ts).
    const still = row.type === 'video' ? stillOf(row.fileName) : null
    if (still && (await storage.open(still))) {
      list.push({
        url: deps.fileUrl(still),
        type: 'photo',
        widthPx: row.widthPx,
        heightPx: row.heightPx,
        durationSeconds: null,
        flagged: row.flagged,
      })
    }
    return ok({ entries: list })
  }

  return { file, preview, entries }
}
